# サイト: ヘッダー、レッスン一覧、レッスン以外のページ。

tagline = データベースのジョブキューとロックの振る舞いを、一歩ずつ観察します。
language = 言語
skip-to-content = 本文へスキップ
# The switch's accessible name starts with its visible word, then says what a press does.
theme-label-light = ライトテーマ: ダークテーマに切り替える
theme-label-dark = ダークテーマ: ライトテーマに切り替える
theme-to-light = ライトテーマに切り替える
theme-to-dark = ダークテーマに切り替える
theme-dark = ダーク
theme-light = ライト
facilitator-link = ワークショップの進行役向け: すべての演習の目標とヒント (印刷用)

lessons-heading = レッスン
lessons-none = レッスンはまだありません
lesson-exercise-chip = 演習
lesson-start-here = ここから
lesson-untranslated = 未翻訳のため英語で表示しています。
lesson-covers = シナリオ
lesson-covers-label = 扱うシナリオ: { $list }
lesson-covers-legend = 各レッスンは、元になった 3 本の記事のシナリオを ID で示します。Q: READPAST を使う SQL Server のジョブキュー、T: Teradata のキューテーブルと SELECT AND CONSUME、I: sp_getapplock とフィルター付き一意インデックスによる冪等な送信。PostgreSQL のレッスンは同じシナリオを PostgreSQL で再現します。
lesson-toggles = 切り替え: { $list }
card-solved = ✓ 解決済み
card-goals = 前回のチェックで達成した目標: { $judged } 件中 { $met } 件
card-started = 着手済み: SQL は保存されています

not-found-title = ページが見つかりません
not-found-before = {""}
not-found-after = {" "}にはページがありません。
no-lesson-title = そのレッスンはありません
no-lesson-before = レッスン{" "}
no-lesson-after = {" "}はありません。レッスンの一覧:
embed-no-lesson-after = {" "}はありません。ページの iframe のアドレスを確かめてください。
embed-no-id = このウィジェットはレッスンを指定していません。アドレスは #/embed/ とレッスンの ID で終わる必要があります(例: #/embed/queue-wait-or-skip)。ページの iframe のアドレスを確かめてください。
embed-did-you-mean = もしかして:
embed-all-lessons = レッスン一覧 (新しいタブで開きます)
no-exercise-title = その演習はありません
no-exercise-before = 演習{" "}
no-exercise-after = {" "}はありません。演習の一覧:
back-to-lessons = レッスン一覧に戻る
simulating = シミュレーション中…
working = 処理中…

rows = { $count } 行

# 進行役のページ。
facilitator-title = ワークショップの演習
facilitator-intro = 演習 { $count } 件。それぞれ複数のシードでチェックします: 競合がたまたまうまくいったときだけ動く修正は数えません。
facilitator-progress = 受講者の進捗は各自のブラウザーに保存されます。
facilitator-print = このページを印刷
facilitator-reset = このブラウザーの演習の進捗をすべてリセット
facilitator-reset-title = このブラウザーで解いた演習と保存した SQL を消去します (共用のワークショップ端末向け)
facilitator-reset-confirm = このブラウザーに保存された演習 { $count } 件の進捗（SQL、表示したヒント、解決済みの印）を消去しますか？
facilitator-reset-yes = 消去する
facilitator-reset-no = 残す
facilitator-cleared = 演習 { $count } 件の保存した進捗を消去しました。
facilitator-covers = シナリオ { $list }
facilitator-seeds = チェックするシード { $seeds }
facilitator-goal = 目標
facilitator-checks = チェック ({ $count })
facilitator-hints = ヒント（受講者に表示される順、{ $count } 件）
facilitator-edits = 受講者が編集する部分:
facilitator-open = 演習を開く

# 内部エラーの後のエラーパネル。
panic-title = Lockstep が停止しました
panic-explain = 内部エラーによりページが停止し、続行できません。再読み込みしてやり直してください。再び起きる場合は、下のメッセージを報告してください。
panic-reload = Lockstep を再読み込み
