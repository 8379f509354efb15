# 結果パネル (全体表示と簡易表示)。

outcome-title = 結果
outcome-note = 実行全体 · { $end } に終了 · シード { $seed }
result-caption = 結果 { $number } · { $rows } 行
result-more = … ほか { $count } 行
result-less = 表示する行を減らす
results-more = … ほか { $count } 個の結果セット。各結果はイベント タブにあります
error-number = エラー { $number }
# An error without a number, in place of its code: a rule whose number is not known, SQL that is not simulated.
error-unnumbered = （番号なし）
error-detail = (重大度 { $severity }、状態 { $state }): { $message }
# PostgreSQL and Teradata: no severity or state number.
error-detail-sqlstate = : { $message }
error-caught = — CATCH ブロックで捕捉
error-caught-exception = — EXCEPTION ブロックで捕捉
errors-caught = { $uncaught } (捕捉 +{ $caught })
figure-ran = 実行時間
figure-waited = ロック待ち
figure-delayed = 遅延状態 (行を待機)
figure-statements = 文の数
figure-reads = 論理読み取り
figure-buffers = 共有バッファーのヒット
figure-errors = エラー
no-results = クライアントに返された結果セットはありません。
check-pass = ✓ 合格
check-fail = ✗ 不合格
check-bug = ⚠ バグを再現
checks-pass = チェック: { $total } 件中 { $passed } 件合格
goals-met = この実行で達成した目標: { $total } 件中 { $passed } 件
exercise-note = これは演習です。SQL を直すと目標を達成できます。課題はレッスン本文を読んでください。
changes-title = 直前の切り替えで変わったこと
changes-title-beside = 左の実行との違い
changes-none = 結果は何も変わっていません。
became = →

compact-ended = { $end } に終了 · シード { $seed }
compact-checks = チェック: { $total } 件中 { $passed } 件合格
compact-session = 待ち { $wait } · { $rows } 行 · エラー { $errors } 件
# Teradata の SELECT AND CONSUME が遅延状態で行を待った時間 (セッションの数値の後)。
compact-caught = { " " }(捕捉 +{ $count })
compact-delayed = { " " }· 遅延状態 { $ms }
compact-last-toggle = 直前の切り替え:
compact-beside = 左との違い:
compact-nothing-changed = 結果は何も変わっていません。
compact-more = 結果、エラー、チェック

# 直前の切り替えで変わったこと: 行の名前と値。
change-toggle = { $label }
change-seed = シード
change-runs = { $session } の実行
change-waited = { $session } の待ち
change-delayed = { $session } の行待ちの遅延
change-ran = { $session } の実行時間
change-errors = { $session } のエラー
change-got = { $session } の取得
change-reads = { $session } の{ $reads }
change-end = 実行の終了
change-anomalies = 異常
change-check = チェック「{ $name }」
change-yes = あり
change-no = なし
change-passed = 合格
change-failed = 不合格
change-none = なし
change-no-result = 結果なし
