# ページがたどれなかったリンクのパラメーター (`t=soon`) についての通知。パラメーター名、
# その値、例は URL の書き方のままです。

link-time = `t={ $value }` は時刻ではありません。仮想時間のミリ秒で書いてください (例: `t=1500`)
link-events = `e={ $value }` はイベント数ではありません。0 以上の整数で書いてください (例: `e=12`)
link-anomaly = `anomaly={ $value }` は異常の番号ではありません。1 から数えた番号で書いてください (例: `anomaly=1`)
link-why = `why={ $value }` は `why=1` (説明を開く) でも `why=0` でもありません。説明は閉じたままです
link-tab = `tab={ $value }` は `tab=lesson`、`tab=tables`、`tab=outcome`、`tab=events` のどれでもありません。レッスンの本文を表示します
link-speed = `speed={ $value }` はプレーヤーの速度 ({ $speeds }) ではありません。1× で再生します
link-anomaly-beyond = `anomaly={ $asked }`: この実行の異常は { $count } 件なので、先頭から表示します
link-time-beyond = `t={ $value }` はこの実行の終わり (`t={ $end }`) より後なので、終わりから表示します
link-events-beyond = `e={ $asked }`: この実行のイベントは { $count } 件なので、終わりから表示します
link-seed = `seed={ $value }` はシードではありません。0 以上の整数で書いてください (例: `seed=7`)
link-schedule = スケジュール `{ $text }`: { $item } 番目の項目 (`{ $token }`) はセッション番号でも `番号~回数` の形でもありません
link-timed-schedule = `schedule={ $value }` は時間ありのスケジュールです。スケジューラーは時間なしで実行するため、そのスケジュールは `u.` で始まります
link-steps = `steps={ $value }` は文の数ではありません。0 以上の整数で書いてください (例: `steps=6`)
link-view = `view={ $value }` は表示形式ではありません。`view=compact` か `view=full` と書いてください
link-theme = `theme={ $value }` はテーマではありません。`theme=light` か `theme=dark` と書いてください
link-compare-param = `{ $name }` は比較のパラメーターではありません。`left`、`right`、`seed`、`t` のいずれかを使ってください
link-toggle-pair = `{ $side }={ $item }` は切り替えの設定ではありません。`名前:値` の形で書いてください (例: `{ $side }=readpast:off`)
link-lang = `lang={ $value }` はこのページの言語ではありません。`lang=en`、`lang=pl`、`lang=ja` のいずれかを書いてください
link-repeated = `{ $name }=` がリンクに { $times } 回あります。最後の `{ $name }={ $kept }` を使います

# レッスンに合わない切り替えの設定 (`lesson::SettingsError`)。`link-bad-setting` の中で使います。
link-unknown-toggle = `{ $name }` は不明な切り替えです (切り替え: { $known })
link-unknown-toggle-none = `{ $name }` は不明な切り替えです。このレッスンには切り替えがありません
link-not-a-value = `{ $value }` は切り替え `{ $name }` の値ではありません (値: { $values })
link-empty-value = 切り替え `{ $name }` には値が必要です (値: { $values })

# 最後までたどれなかったスケジュール (`ReplayProblem`)。
replay-not-enabled = スケジュールの選択 { $choice } はセッション { $session } ({ $name }) を選びますが、その時点で実行できるのは { $enabled } だけです
replay-not-enabled-missing = スケジュールの選択 { $choice } は存在しないセッション { $session } を選びますが、その時点で実行できるのは { $enabled } だけです
replay-cannot-run = { $who } は今は実行できません
replay-that-session = そのセッション
replay-no-such-session = セッション { $session } はありません（このレッスンのセッション: { $known }）
replay-pick = 選択 { $choice }: { $error }
replay-ended = 実行は { $run } 文で終わりました。リンクが求める { $asked } 文より前です
replay-out-of-choices = スケジュールの選択は { $run } 文の後で尽きました。リンクが求める { $asked } 文より前です
replay-unused = リンクは { $run } 文で止まるため、{ $total } 個の選択のうち { $unused } 個は使われませんでした
replay-finished = すべてのセッションが { $run } 文で終わったため、リンクの { $total } 個の選択のうち { $unused } 個は使われませんでした
