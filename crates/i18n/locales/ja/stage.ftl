# ステージのパネル: タイムライン、セッション、待機とロック、テーブル、イベント、「なぜ」、予想。

timeline = タイムライン
timeline-whole = 実行全体、{ $span }
lanes-more = セッション { $count } 件 ↓
lanes-more-title = タイムラインには一部のセッションだけが表示されています。スクロールすると残りが表示されます
timeline-whole-shared = 実行全体、{ $span } (長いほうの実行の { $axis } の目盛り)
zoom-group = タイムラインの拡大縮小
zoom-in = 拡大
zoom-in-title = 拡大 (またはホイールを上へ)
zoom-out = 縮小
zoom-out-title = 縮小 (またはホイールを下へ)
zoom-reset = 全体
lane-title = { $name }: クリックで再生位置を移動
lane-starts = { $time } に開始
lane-statement = { $line } 行目の { $label }
lane-queue = 待ち行列
lane-waits = { $whom } を待機
lane-sleeps = スリープ
lane-delayed = 遅延状態: { $table } が空
overview-all = 全体
overview-title = 実行全体
overview-label = 表示中の区間: ドラッグで選択、矢印キーで移動、+ と − で拡大縮小
overview-value = { $from } から { $to } まで
legend = 凡例
legend-running = 実行中
legend-waiting = ロック待ち (保持者の名前付き)
legend-sleeping = スリープ (遅延)
legend-delayed = 遅延状態 (空のキューテーブルに対する consume)
legend-mixed = 短いステップが多数: 拡大すると各文が見えます
legend-marks = ✕ エラー · ⤼ ロックされた行をスキップ · ◆ 結果 · ✓ コミット · ↺ ロールバック · ☠ デッドロック
legend-anomaly = 異常: このレッスンの主題 ([ と ] で移動、? で理由)
legend-zoom = 拡大縮小: レーン上でホイールかピンチ、+ と −、または全体の帯をドラッグ。
keys = キー操作
keys-space = Space
keys-play = 再生または一時停止
keys-step = 1 イベント戻る、進む
keys-ends = 先頭、末尾
keys-anomaly = 前または次の異常
keys-why = 「なぜ」を開く、閉じる
keys-escape = 「なぜ」を閉じる。トグル上ではキー操作をプレーヤーに戻す
keys-page = ステージをスクロール

anomaly-at = { $time } の { $anomaly }
anomaly-none = この実行に異常はありません。
anomaly-of = 異常 { $shown } / { $total }
anomaly-of-several = 異常 { $first }–{ $last } / { $total }
anomaly-ahead = この先の異常: { $total } 件
anomaly-passed = 通過: { $shown } / { $total }
anomaly-about = 異常: このレッスンの主題
anomaly-group = 異常
anomaly-prev = 前の異常
anomaly-prev-title = 前の異常 ([)
anomaly-prev-button = ◂ 異常
anomaly-next = 次の異常
anomaly-next-title = 次の異常 (])
anomaly-next-button = 異常 ▸

why-button = なぜ?
why-hide = 理由を隠す
why-button-title = なぜこうなったのか? (? で開閉、Esc で閉じる)
why-nothing-title = ここに説明することはありません
why-nothing = 再生位置のイベントは SQL だけから決まります。待機、スキップ、エラー、異常 (] で次の異常へ) に進むと、ここに理由が表示されます。
why-nothing-no-anomalies = 再生位置のイベントは SQL だけから決まります。待機、スキップ、エラーに進むと、ここに理由が表示されます。
why-matrix-caption = ロックの互換性 ({ $dialect }): 他のセッションが保持しているロック (列) がある間に、要求されたロック (行) を付与できるか?
why-matrix-lit = 強調: 要求 { $asked }、保持 { $held }。
why-matrix-corner = 要求 \ 保持

code-sessions = セッション
code-sessions-now = 現在のセッション
code-running = 実行中
code-finished = 終了
code-idle = 実行中の文なし
code-not-started = 未開始 ({ $time } に開始)
code-waiting = { $whom } を待機: { $resource } に { $mode } を要求
code-earlier-waiters = 先に待っているセッション
code-sleeping = { $time } までスリープ
code-delayed = 遅延状態: consume がキューテーブル { $table } の行を待機
code-in-setup = セットアップ ブロック、{ $line } 行目:
code-in-setup-proc = プロシージャ { $proc } 内 (セットアップ ブロック)、{ $line } 行目:
code-trancount = トランザクション中 ({ $count })
code-trancount-title = 開いているトランザクション (@@TRANCOUNT)
code-toggled = 切り替え「{ $toggle }」で変わる部分
code-toggled-empty = 切り替え「{ $toggle }」は現在ここに何も入れません
narrative-session = セッション { $name }、{ $time } に開始

waits-title = 誰が誰を待っているか
waits-edge = { $resource } の { $mode }
waits-nobody = 待機なし
waits-nobody-now = 現在、待っているセッションはありません。
waits-deadlock = デッドロック: { $cycle } — 犠牲者は { $victim } (エラー 1205)。
locks-title = 保持中のロック
locks-none = ロックなし (インテント ロックを除く)。
locks-none-plain = ロックなし。
locks-more = … ほか { $count } 件
locks-waiting = 待機:
locks-wants = { $session } が { $mode } を要求
state-through = このステップの終わり、イベント { $last } の後の状態です。イベント { $first }–{ $last } は { $time } に同時に起きます。
filter-label = テーブルを絞り込む
filter-text = ID か値で行を検索
filter-session = セッションの行
filter-any-session = すべてのセッション
filter-locked = ロック中
filter-anomalies = 異常あり ({ $count })
filter-clear = すべて表示
table-match = { $total } 行中 { $matched } 行が一致
table-first-shown = 最初の { $shown } 行を表示
table-shown = { $shown } 行を表示: ロック中、最近変更、先頭の行
table-no-match = 一致する行はありません
table-no-rows = 行なし
table-gap = … ほか { $count } 行 …
table-locks-column = ロック
table-locks-short = ロック
table-changed-now = (今変更)
table-skipped = ⤼ スキップ
table-recent = 表示されていない行の最近の変更:
log-seek = 再生位置をこのイベントに移動

predict-title = まず予想
predict-skip = スキップして実行を表示
predict-summary-hidden = まず予想: 概要は回答の後に表示されます。
predict-narrative-hidden = レッスンの本文は実行結果を説明するため、質問に答えるかスキップした後に表示されます。
predict-panel-hidden = このタブは実行結果を表示するため、質問に答えるかスキップした後に表示されます。
predict-stop = もう尋ねない
predict-hint = 回答はこのブラウザーに保存されます。レッスン タブで質問を再び有効にできます。
predict-running = 実行中…
predict-right = 正解。
predict-wrong = 惜しい。
predict-you-said = あなたの答え: { $answer }。
predict-run-says = 実行の結果: { $answer }。
predict-none = どの選択肢でもない
predict-cannot-judge = この実行では答えを判定できません: { $error }。
predict-moment = その瞬間を見る
predict-yours = あなたの予想
predict-again = もう一度尋ねる

# 2 つの実行を並べて比較。
compare-page-title = 比較: { $title }
compare-back = レッスンに戻る
compare-same = 両側の設定が同じです: 比較するには片側で別の値を選んでください。
compare-same-choose = 右側を次の設定にして比較:
compare-simulating = 両方の実行をシミュレーション中…
compare-never = 2 つの実行は分岐しません: すべてのイベントが同じ時刻に同じように起きます。
compare-part = 実行は { $time } (イベント { $event }) で分岐します。
compare-same-before = それより前のイベントはすべて同じです。
compare-both = 両側共通:
compare-left = 左:
compare-right = 右:
compare-ended = 実行は終了しています
compare-why = 理由: 違いは { $differs } だけです。これはその違いが変える最初のイベントで、以降はすべてここから決まります。
compare-go = この時点へ移動
compare-left-run = 左の実行
compare-right-run = 右の実行
compare-marker = 実行は { $time } で分岐します
compare-of = / { $end }
compare-scrub = 仮想時間 (両方の実行)
compare-back-label = どちらかの実行の前の時点へ戻る (←)
compare-forward-label = どちらかの実行の次の時点へ進む (→)
compare-outcomes = 結果
compare-left-title = 左
compare-right-title = 右 (左との比較)
compare-no-difference = 違う切り替えはありません。
compare-differ = 左右の違い — { $differs }。
compare-swap = 左右を入れ替える

# 結果マトリクス。
matrix-title = 結果マトリクス: { $title }
matrix-back = ← レッスンに戻る
matrix-intro = レッスンの切り替えのすべての組み合わせを、それぞれ複数のシードで実行します。セルはすべてのシードの結果で、シードごとに違うときは最小–最大です。セルを開くとその実行を見られます。
matrix-starting = すべての組み合わせを実行中…
matrix-running = { $runs } 回中 { $done } 回実行… { $time }
matrix-cancelled = { $runs } 回中 { $done } 回でマトリクスをキャンセルしました。
matrix-again = もう一度計算
matrix-failed = マトリクスを計算できませんでした
matrix-summary = { $rows } 通りの組み合わせ × シード { $seeds } 個 ({ $list }): { $time } で { $runs } 回実行。
matrix-checks = チェック
matrix-checks-title = 該当するチェックのうち、全シードで合格したもの
matrix-errors-label = TRY ブロックで捕捉されなかったエラー（セッション別・番号別）
matrix-errors-label-exception = EXCEPTION ブロックで捕捉されなかったエラー（セッション別・番号別）
matrix-errors-label-client = クライアントに返されたエラー（セッション別・番号別）
matrix-marks-pass = すべてのシードで期待どおり
matrix-marks-fail = いずれかのシードで期待と違う
matrix-marks-bug = レッスンのバグをすべてのシードで再現
matrix-marks-note = 印は、レッスンのチェックとプロパティがそのセルに期待したことが実現したかを示します (プロパティは各実行の最終状態で判定)。印のないセルは、この設定では期待がありません。Tab で行から行へ移り、Enter でその行の実行をプレーヤーで開きます。
matrix-mark-pass = 期待どおり
matrix-mark-fail = 期待と違う
matrix-mark-bug = バグを再現
matrix-property-holds = ✓ 終了時に成立
matrix-property-broken = ✗ 破れた
matrix-verdict = { $verdict }: { $name }
matrix-open-row = { $settings }: この実行をプレーヤーで開く (シード { $seed })
matrix-errors-none = なし
matrix-no-rows = 行なし

block-setup = セットアップ: セッションの前に実行
block-show = 表示のみ、実行しません
block-off = { $count ->
        [one] ({ $when } のときだけ使われるブロック: この実行では使われません。)
       *[other] ({ $when } のときだけ使われるブロック { $count } 個: この実行では使われません。)
    }
block-or = {" "}または{" "}
block-and = {" "}かつ{" "}

# スケジューラーになる、と探索。
schedule-can-run = 実行可能
schedule-run = { $session } を実行
schedule-run-key = { $session } を実行 ({ $key })
schedule-next = 次の文 ({ $session } の SQL の { $line } 行目):
schedule-next-setup = 次の文、セットアップ ブロックの { $line } 行目 (セッションが呼んだプロシージャ):
schedule-goes-on = 開始済みの文の続き ({ $session } の SQL の { $line } 行目):
schedule-goes-on-setup = 開始済みの文の続き、セットアップ ブロックの { $line } 行目 (セッションが呼んだプロシージャ):
schedule-finished = すべてのセッションが { $count } 文の後に終了しました。
schedule-none-can-run = 実行できるセッションはありません。
schedule-who-next = { $count } 文を実行済み。次に実行できるセッション：{ $names }
schedule-step = ステップ { $step }: { $lines }
# 1 ステップの 2 つのイベントの間。
schedule-step-join = 。
# 一覧の 2 つのセッション名の間。
schedule-names-join = 、
# 選んだばかりのセッションの実行ボタンの下。続いてそのステップのイベント。
schedule-did = ステップ { $step } で起きたこと:
schedule-problem-title = リンクのスケジュールを最後までたどれませんでした
schedule-undo = 元に戻す
schedule-keys = キー: 1–{ $last } でセッションを実行、Backspace か u で元に戻す。
schedule-refused-cannot = { $session } は今は実行できません: { $status }。
schedule-refused-finished = { $session } は終了しています。
schedule-refused-none = キー { $key } のセッションはありません。
schedule-string = スケジュール:
schedule-string-help = （これまでの選択。このページのリンクと lockstep run --schedule で再生できます）
schedule-log = これまでのステップ
schedule-log-note = 新しい順
schedule-log-empty = まだどの文も実行されていません。
schedule-log-broken = 「{ $name }」が破れました: { $detail }
properties = 性質
properties-note = 文ごと、または終了時に判定
property-holds = 今のところ成立
property-at-end = 全セッションの終了時に判定
property-held = 成立
property-broken-at = ステップ { $step } で破れた: { $detail }
property-alert = ステップ { $step } で「{ $label }」が破れました: { $detail }。
explore-title = すべてのインターリーブを探索
explore-intro = セッションの文のあらゆる順序を (既に見た状態や結果に影響しない順序は飛ばして) 探索し、性質を破る順序を探します。
explore-property = 性質
explore-button = 探索
explore-running = 探索中…
explore-cancelled = 探索をキャンセルしました: { $progress }。どちらも証明されていません。
explore-failed = 探索を実行できませんでした
explore-why-end = 。
explore-why = 理由:
explore-open-scheduler = スケジューラーで開く
explore-open-player = プレーヤーで開く
explore-rate = 、毎秒 { $rate } 状態
explore-progress = { $states } 状態を探索、深さ { $depth } (最深 { $deepest }){ $rate }
explore-bounds = インターリーブあたり最大 { $steps } ステップ、{ $states } 状態まで
explore-holds = 「{ $label }」は { $bounds } のすべてのインターリーブで成立します: { $states } 状態と { $schedules } スケジュールを網羅的に探索 ({ $took } ms)。
explore-held = 「{ $label }」は試したすべてのインターリーブで成立しましたが、探索は網羅的ではありません: { $states } 状態と { $schedules } スケジュールで上限 ({ $bounds }) に達し、その後ランダムウォークを { $walks } 回実行しました ({ $took } ms)。
explore-breaks = 「{ $label }」は { $statements } 文 (コンテキスト切り替え { $switches } 回) の後に破れます: { $detail }。{ $states } 状態の探索で発見 ({ $took } ms)。

# 反例のステップと、性質が破れる理由。セッション、テーブル、キー、文、トレースの行は
# 実行が書くとおりに入ります。{ $did } はステップが行ったことです。
explore-server = サーバー
explore-step-runs = { $who } が { $statement } を実行します
explore-step-finishes = { $who } が文を終えます
explore-step-reads = { $rows } を読み取ります
explore-step-did = { $who } が { $did }
explore-server-did = { $who }: { $did }
explore-step-statement = { $did }（{ $statement }）
explore-conflict = { $writer } の { $verb } が { $row } を書き込む前に { $reader } がそれを読み取り、その後両方がそれを書き込みます
explore-conflict-unnamed = { $writer } が { $row } を書き込む前に { $reader } がそれを読み取り、その後両方がそれを書き込みます
explore-a-row = ある行

schedule-title = スケジューラーになる: { $title }
schedule-back = プレーヤーに戻る
schedule-intro = 次の文をどのセッションが実行するかを、時計に任せず 1 文ずつ自分で選びます。レッスンの性質を破る順序を見つけるか、探索にすべての順序を調べさせてください。
why-matrix-yes = 両立
why-matrix-no = 両立しない

# レーンの区間と印 (ツールチップとスクリーンリーダー用)。
seg-runs = { $session } は { $span } 実行
seg-sleeps = { $session } は { $span } スリープ
seg-delayed = { $session } は { $span } 遅延状態: consume がキューテーブル { $table } の行を待機
seg-waits = { $session } は { $span } { $whom } を待機 ({ $resource } のロック)
seg-mixed = { $session }、{ $span }: 短い区間 { $count } 個: 実行 { $running }、スリープ { $sleeping }、待機 { $waiting } (待機 { $waits } 回)
mark-error = エラー { $number } を受け取る
mark-skipped = ロックされた行をスキップ
mark-deadlock = デッドロックの犠牲者になる
mark-result = 結果を受け取る
mark-commit = コミット
mark-rollback = ロールバック
mark-call = 外部システムを呼び出す
mark-times = { $session } が{ $what } ({ $time } から { $count } 回)
mark-at = { $session } が { $time } に{ $what }

# 異常の言葉（異常マーク、異常ナビゲーション、「なぜ」パネルの見出し）。
anomaly-deadlock-victim = デッドロックの犠牲
anomaly-error = エラー { $number }
anomaly-repeats = { $table } ({ $key }) が { $table } ({ $first }) の { $values } を繰り返す
anomaly-updated-to-repeat = { $table } ({ $key }) が更新で { $table } ({ $first }) の { $values } を繰り返す
anomaly-unmatched = { $table } ({ $key }) に { $values } があるが、{ $other } にその行がない
anomaly-unmatched-error = { $unmatched }。その後 { $session } でエラー { $number }
anomaly-unmatched-removed = { $unmatched }。{ $by } が { $other } ({ $key }) を削除
anomaly-lost = { $table } ({ $keys }) を消費。その後エラー { $number }。その後コミット
anomaly-lost-returned = { $table } ({ $keys }) を消費して { $row } を返した。その後エラー { $number }。その後コミット
anomaly-kept = { $table } ({ $keys }) を書き込みコミット。その後エラー { $number }

# イベントログ、待機グラフ、テーブル、コード中のトグル箇所。
log-note = この実行で { $count } 件。クリックで移動
log-earlier = … 前のイベント { $count } 件
log-later = … 後のイベント { $count } 件
waits-sentence = { $waiter } は { $holder } を待機 ({ $label })
table-holds = { $session } が { $mode } を保持
table-search-placeholder = 行を検索: ID または値
row-uncommitted = ✎ { $session } 未コミット
row-uncommitted-title = { $session } が変更、まだコミットされていない
code-nothing-for = ({ $toggle } ではここに何もない)
code-line = { $line } 行目
row-skipped = { $session } がスキップ ({ $clause }): { $holder } が { $held } を保持、{ $session } は { $wanted } が必要
matrix-seed-reading = シード { $seed }: { $reading }

# スケジューラーと探索の組み込みプロパティ（レッスンは独自のものを宣言します）。
property-no-errors = エラーで終わるセッションはない
property-no-deadlock = デッドロックなし
# Between two sentences of one paragraph (Japanese writes none after 。).
sentence-gap = { "" }
