# 演習ページ: 目標、チェック、ヒント、エディター。

exercise-not-title = 演習ではありません
exercise-not-before = レッスン{" "}
exercise-not-after = {" "}にはチェックする目標がありません。
exercise-not-open = プレーヤーで開く。
exercise-watch = 最初の SQL をプレーヤーで見る
exercise-goal = 目標:
exercise-goals = 目標
exercise-side = 目標とチェック
exercise-cannot-run = この演習は実行できません
dismiss = 閉じる
progress-corrupt = この演習の保存した進捗を読み取れなかったため、リセットしました。
hint-first = ヒントを表示 (1 / { $total })
hint-next = 次のヒント ({ $number } / { $total })
check-button = チェック
reset-progress = 進捗をリセット
reset-progress-title = 最初の SQL に戻し、解いた記録を消します
checking = { $seeds } 個のシードでチェック中…
check-progress = シード { $seed } / { $seeds }、エンジン { $steps } ステップ、仮想時間 { $time }
check-cancelled = チェックをキャンセルしました: { $progress }。目標は判定されていません。SQL を変更して、もう一度チェックしてください。
check-solved = 解決: すべての目標が { $seeds } 個のシードすべてで成り立ちます。
check-run-error = まだです: SQL の実行がエラーで終わったため、どの目標も数えません。
check-failed = まだです: { $total } 件中 { $failed } 件の目標が不合格です。最初に不合格になった実行を下に示します。
check-no-seed = シードは実行されていません。
check-goto = カーソルを { $line } 行 { $col } 列へ
check-limit = シミュレーターが制限に達したため SQL を止めました: { $message }
check-stale = このチェックの後で SQL が変わりました: もう一度チェックしてください。
editor-label = あなたの SQL:
editor-changed = 変更あり
editor-indents = {" "}でインデント、{" "}
editor-outdents = {" "}でインデント解除 ·{" "}
editor-then = 、次に{" "}
editor-moves-on = {" "}で次へ
shown-label = 実行
shown-failed = 「{ $goal }」が不合格になった実行: シード { $seed }
shown-solution = あなたの解答の実行: シード { $seed }
shown-error = この実行は表示できません

# 目標の名前の横に出す判定。
goal-unjudged-error = 未判定: SQL にエラーがあります
goal-unjudged-cancelled = 未判定: チェックを取り消しました
goal-unchecked = まだチェックしていません
goal-not-counted = 数えません: シード { $seed } の実行がエラーで終わりました
goal-met-all = { $seeds } 個のシードすべてで達成
goal-failed-on = シード { $seed } で未達成: { $detail }
goal-met-last = 前回のチェックで達成
goal-not-met-last = 前回のチェックで未達成
