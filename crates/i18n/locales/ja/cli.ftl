# CLI 自身の言葉: `lockstep run` のテキスト出力と SVG 書き出し (--lang)。数値は書式済み
# (`1500`) で届くので、どの言語でも数字は同じに見える。

# lockstep run、テキスト
run-heading = レッスン { $id }  シード { $seed }  { $settings }
run-no-toggles = トグルなし
run-trace-cut = … ここで { $count } 件のイベントを省略しました (--full-trace で表示、--json にはすべて含まれます)
run-schedule = スケジュール { $schedule }
run-trace = トレース:
run-outcome = 結果: { $end } ms で終了
run-session = { $session }: 待機 { $wait } ms、文 { $statements }、エラー { $errors }{ $caught }、{ $reads_name } { $reads }、実行 { $ran } ms{ $delayed }
run-caught = { " " }(+{ $count } 件捕捉)
run-delayed = 、遅延状態 { $ms } ms
run-error = エラー { $number }: { $message }
run-error-caught = エラー { $number } (捕捉済み): { $message }
run-result = 結果 { $number } ({ $rows } 行):
run-checks = チェック: 合格 { $passed }、不合格 { $failed }
run-pass = 合格
run-fail = 不合格
run-bug-reproduced = { " " }[バグを再現]
run-questions = 質問: { $count }
run-question-none = 当てはまる選択肢がありません
run-question-many = 複数の選択肢が当てはまります: { $choices }
run-anomalies = 異常: { $count }
run-query = クエリ: { $sql }

# lockstep run --svg
svg-title = { $title } — タイムライン
svg-desc = レッスン { $id }（シード { $seed }{ $settings }）の Lockstep タイムライン: セッションごとに 1 本のレーン（{ $sessions }）、セッションごとの結果、レッスンのチェック。
svg-seed = シード { $seed }
svg-ended = { $end } ms で終了
svg-solution-note = 演習の解答で実行
svg-span = { $from }～{ $to } ms（{ $length } ms）
svg-runs = { $session } 実行中、{ $span }
svg-sleeps = { $session } スリープ中、{ $span }
svg-is-waiting = { $session } は{ $label }、{ $span }
svg-consume-delayed = { $session } の消費は{ $label }、{ $span }
svg-running = 実行中
svg-sleeping = スリープ中
svg-waiting-queued = { $resource } を待機中（先の待機者の後ろ）
svg-waiting-for = { $resource } を待機中、保持者 { $holders }
svg-delayed-empty = 遅延状態: { $table } が空
svg-mixed-title = { $session }: 短い区間 { $count } 個、{ $span }: 実行 { $running } ms、待機 { $waiting } ms、スリープ { $sleeping } ms
svg-mixed-label = 混在: 実行 { $running }%、待機 { $waiting }%、スリープ { $sleeping }%
svg-short-run = 実行
svg-short-wait = 待機
svg-short-sleep = スリープ
svg-short-delayed = 遅延
svg-short-mixed = 混在
svg-mark-error = { $count ->
    [1] エラー { $number }
   *[other] エラー { $number } ×{ $n }
}
svg-mark-skip = { $count ->
    [1] READPAST スキップ
   *[other] READPAST スキップ ×{ $n }
}
svg-mark-deadlock = { $count ->
    [1] デッドロックの犠牲
   *[other] デッドロックの犠牲 ×{ $n }
}
svg-mark-result = { $count ->
    [1] 結果セット
   *[other] 結果セット ×{ $n }
}
svg-mark-commit = { $count ->
    [1] コミット
   *[other] コミット ×{ $n }
}
svg-mark-rollback = { $count ->
    [1] ロールバック
   *[other] ロールバック ×{ $n }
}
svg-mark-call = { $count ->
    [1] 外部呼び出し
   *[other] 外部呼び出し ×{ $n }
}
svg-mark-at = { $at } ms
svg-mark-between = { $from }～{ $to } ms
svg-mark-title = { $session } { $what } { $when }; { $event }
svg-mark-title-first = { $session } { $what } { $when }; 最初: { $event }
svg-key-running = 実行中
svg-key-waiting = ロック待機（ラベル: リソースと保持者）
svg-key-sleeping = スリープ中
svg-key-delayed = 遅延状態（Teradata の消費）
svg-key-mixed = 混在: 短い区間をまとめたもの（点線）
svg-key-error = エラー（横に番号）
svg-key-skip = READPAST スキップ
svg-key-deadlock = デッドロックの犠牲
svg-key-result = 結果セット
svg-key-commit = コミット
svg-key-rollback = ロールバック
svg-key-call = 外部呼び出し
svg-scale-note = この縮尺では 1 ピクセルが { $px } ms です。{ $min } px より狭い待機と、{ $alone } px より狭い実行・スリープの区間はまとめて描きます: 同じ状態の隣同士はつながり、異なる状態の並びは最も長かった状態の色で点線の「混在」区間 1 つになります（内訳はツールチップに）。{ $bucket } px より近い同じ種類のマークは 1 つにまとめ、個数（×N）を添えます。ごく短い区間も { $min } px の幅で描きます。
svg-outcome = 結果: { $end } ms で終了
svg-col-session = セッション
svg-col-wait = 待機 ms
svg-col-errors = エラー
svg-col-statements = 文
svg-col-first-row = 最初の結果行
svg-none = なし
svg-no-result = 結果なし
svg-checks = チェック: 合格 { $passed }、不合格 { $failed }
svg-no-check = この設定に当てはまるチェックはありません。
