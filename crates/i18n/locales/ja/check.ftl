# チェックの結果: 期待値と実際の値。行は SQL リテラル、指標名はレッスンファイルのまま。

detail-query-failed = クエリが { $line }:{ $col } で失敗しました: { $message }
detail-no-session = セッション { $session } はこの設定では実行されませんでした
detail-no-result = セッション { $session } の結果セットは { $sets } 個で、チェックは結果 { $result } を読みます
detail-figure-run = { $figure } = { $value } ({ $expected })
detail-figure-session = { $session } の { $figure } = { $value } ({ $expected })
detail-figure-all = 全セッションの { $figure } = { $value } ({ $expected })
detail-rows = 結果 { $got }
detail-rows-differ = 期待値 { $expected }、結果 { $got }
detail-row-count = 期待値 { $expected } 行、結果 { $got } 行
detail-row-count-listed = 期待値 { $expected } 行、結果 { $got } 行: { $rows }
detail-scalar = 結果 { $value } ({ $expected })
detail-not-a-number = 数値を期待しましたが、結果は { $got }
detail-not-one-number = 数値 1 つの 1 行を期待しましたが、結果は { $got }
detail-no-seed-run = シードを 1 つも実行していません
expected-equal = 期待値 { $value }
expected-between = 期待値 { $min }～{ $max }
expected-at-least = 期待値 { $min } 以上
expected-at-most = 期待値 { $max } 以下
expected-anything = 任意の値
detail-session-error = { $session } でエラー { $number }: { $message }
