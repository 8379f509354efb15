# レッスンページとプレーヤー: 切り替え、再生操作、ナレーション、シード、パネル。

player-label = プレーヤー
all-lessons = ← レッスン一覧
open-scheduler = スケジューラーになる
open-scheduler-title = どのセッションが次の文を実行するかを自分で選ぶか、すべての順序を探索します
open-matrix = 結果マトリクス
open-matrix-title = 切り替えのすべての組み合わせを複数のシードで実行し、1 つの表にまとめます
open-exercise = エディターで解く
open-exercise-title = このレッスンは演習です。エディター、目標、チェックは演習ページにあります
dock-label = テーブル、結果、イベント、レッスン本文
dock-tabs-label = パネル
tab-lesson = レッスン
tab-tables = テーブル
tab-outcome = 結果
tab-events = イベント
predict-switch = 実行前に予想を尋ねる (質問 { $count } 件)

compare-title = この実行を { $toggle } = { $value } の実行と、同じ時間軸で上下に並べて比較します
compare-label = { $toggle } = { $value } と比較

home-label = 最初に戻る (Home)
home-title = 最初 (Home)
step-back-label = 1 イベント戻る (←)
step-back-title = 戻る (←)
play-label = 再生 (Space)
pause-label = 一時停止 (Space)
replay-label = もう一度 (Space)
play = 再生
pause = 一時停止
replay = もう一度
step-forward-label = 1 イベント進む (→)
step-forward-title = 進む (→)
end-label = 最後へ (End)
end-title = 最後 (End)
speed = 速度
speed-title = 1× では 1 秒に 4 イベント。何も起きない区間は 0.25 秒までは実時間で、それより長い区間は短縮して（最長 2 秒）再生します。時計は仮想時間を示します。
position-end = / { $end }
position-event = イベント { $event } / { $events }
virtual-time = 仮想時間
idle = » { $span } の待ち時間 — 再生時は早送り
idle-title = 何も起きない区間は実時間より速く再生します

seed = シード
seed-run = 実行
seed-next = 次のシード
seed-next-title = 次のシードで実行します
seed-random = 別のインターリーブ
seed-random-title = ランダムなシードで実行します: セッションの実行順序が変わります
seed-reset = レッスンのシード ({ $seed })
seed-help = シードはセッションの実行順序を決めます。同じシードは同じ実行を再現します。
seed-invalid = シードは 0 以上の整数です。

narration-start = 開始: セットアップが実行され、まだどのセッションも始まっていません。再生を押すか、→ で 1 ステップずつ進めます。
narration-start-touch = 開始: セットアップが実行され、まだどのセッションも始まっていません。再生をタップするか、▶| で 1 ステップずつ進めます。
narration-event = { $time } · イベント { $event } / { $events }: { $line }

run-progress = エンジン { $steps } ステップ、仮想時間 { $time }
cancel = キャンセル
cancelled-title = この実行はキャンセルされました
cancelled-detail = エンジン { $steps } ステップ、仮想時間 { $time } まで進んでいました。
run-again = もう一度実行
run-error-title = この設定はシミュレーションできません
run-error-hint = 切り替えを元に戻すと実行を表示できます。

url-warnings-title = このリンクを正確にはたどれませんでした
schedule-note-before = この実行はスケジュール{" "}
schedule-note-untimed = {" "}を時間なしで (文の境界ごとに選択)
schedule-note-after = {" "}を再生します。その先はシード付きのスケジューラーが選びます。
schedule-note-stopped = {" "}を再生します。スケジュールをたどれなくなったところで実行は止まります。
schedule-note-back = シード付きの実行に戻る
schedule-problem = スケジュールをたどれませんでした: { $problem }。
conflict-step = 競合するステップ { $step }: { $line }
conflict-step-at = { $label }（{ $at }）
link-bad-setting = リンクは `{ $setting }` を指定していますが、{ $error }{ $default }。
link-showing-default = 。`{ $setting }` を表示しています
