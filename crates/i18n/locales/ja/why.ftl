# 「なぜ」: 待機、スキップ、エラー、異常の背後にある規則。セッション、テーブル、キー、
# ロックモード、文、エラー番号は実行での名前のまま入ります。

why-title = なぜ: { $label }
why-sentence = { $text }。
why-period = 。
why-in-statement = ({ $statement })
why-statement-aside = ({ $statement })
why-statement = { $label } ({ $line } 行目)
why-statement-in-proc = { $proc } の { $label } ({ $line } 行目)
why-meaning = : { $meaning }。
why-verb-wrote = 書き込みました

why-wait-title = { $session } が待つ理由
why-wait-asks = { $session } は { $resource } に { $mode } ロックを要求します。
why-wait-asks-in = { $session } は { $statement } で { $resource } に { $mode } ロックを要求します。
why-wait-queued = { $resource } への先行する要求が待ち行列にあり、ロックは順番に付与されるため、{ $session } は順番を待ちます。
why-wait-behind = { $queued } は先に { $resource } の { $wanted } を要求し{ $aside }、まだ待っています。ロックは順番に付与され、{ $mode } は { $wanted } と両立しないため、{ $session } は { $queued } の後ろで待ちます。
why-wait-incompatible = { $mode } は { $held } と両立しません: { $session } は { $holder } が解放するまで待ちます。

why-refused-title = { $session } が拒否された理由
why-refused-asks = { $session } は { $function } で { $resource } に { $mode } ロックを要求します。この関数は決して待ちません。
why-refused-incompatible = { $mode } は { $holder } が保持する { $held } と両立しません: { $function } はすぐに false を返し、{ $session } はロックなしで先へ進みます。
why-refused-behind = { $queued } は先に { $resource } の { $wanted } を要求し{ $aside }、まだ待っています。ロックは順番に付与され、{ $mode } は { $wanted } と両立しないため、{ $function } は { $queued } の後ろで待たずにすぐ false を返し、{ $session } はロックなしで先へ進みます。
why-holds-since = { $holder } は { $time } から { $resource } に { $mode } を保持しています
why-holds = { $holder } は { $resource } に { $mode } を保持しています。
why-key-check = このロックは { $holder } の外部キー { $constraint } の検査が取得したものです。{ $holder } のトランザクションが終わるまで、参照される行は削除も、キーの変更もできません。

why-skip-title = { $session } が { $table } { $key } をスキップした理由
why-skip-rule = { $session } は { $table } { $key } をスキップしました: { $clause } は、自分のロックと両立しないモードでロックされた行を飛ばします。
why-skip-holder = { $holder } がその行に { $held } を保持しており、{ $session } に必要な { $wanted } とは両立しないため、待たずに次の行を読みます。

why-error-title = { $session } がエラー { $number } を受け取った理由
why-error-in = { $session } は { $statement } でこのエラーを受け取りました。
why-error-rethrown = 引数なしの THROW は、CATCH ブロックが捕らえたエラーをそのまま再び発生させます。エラーの出どころは { $statement } で、SQL Server は THROW の行ではなくその文の行を報告します。
why-error-deadlock = デッドロック モニターはサイクル { $cycle } の犠牲者として { $victim } を選びました。
why-error-serialization = { $session } はトランザクションの最初の文で取られたスナップショットから読みます。別のトランザクションがこの行を変更し、そのスナップショットの後にコミットしました。この分離レベルでは、そのような行をロックしたり変更したりできません。見ていない変更を上書きする代わりにエラーになります。トランザクション全体を再試行してください。
why-error-rw-dependencies = { $session } のトランザクションは SERIALIZABLE です: データベースは読んだものと書いたものを追跡していました。別の SERIALIZABLE トランザクションが { $session } の読んだ行を変更し、{ $session } がそのトランザクションの読んだ行を変更しました (または三つ目が輪を閉じました)。一つずつ順に実行するどの順序でもこの結果にはならないため、どちらかが取り消されます。ここでは { $session } です。失敗した COMMIT も含めて、トランザクション全体を再試行してください。
why-error-readpast-level = READPAST は READ COMMITTED か REPEATABLE READ でしか使えません。SNAPSHOT や SERIALIZABLE(または NOLOCK や HOLDLOCK と一緒)では、SQL Server はデータにかかわらず、行を読む前にその文を拒否します。
why-error-set-options = フィルター選択インデックス(またはインデックス付きビュー、計算列のインデックス)のあるテーブルへの書き込みには、ほかのオプションとともに QUOTED_IDENTIFIER ON が必要です。プロシージャは、呼び出し元が何を設定しても、作成されたときの QUOTED_IDENTIFIER で動きます。そのため呼び出し前の SET では直らず、ON でプロシージャを作り直す必要があります。
why-error-unique = このキーの行はすでにあります(別のトランザクションが先に挿入しました。未コミットのその行に出会った挿入は、そのコミットを待ちました)。一意インデックスは 2 つ目を拒否します。
why-error-delayed-limit = Teradata では、空のキューに対する SELECT AND CONSUME の遅延状態で待てるのは、パーシング エンジンのセッションの 20 %(既定の 120 のうち 24)までです。{ $session } の消費はそれを超える 1 つだったため、そのトランザクションは中止されます。メッセージは消費文の上限と言いますが、達したのは遅延セッション数の上限です。
why-error-no-transaction = END TRANSACTION は BEGIN TRANSACTION が開いたものを閉じます。{ $session } のトランザクションはすでに終わっていた(中止はトランザクションを終わらせ、ロールバックします)ため、この ET には閉じるものがありません。
why-error-caught = TRY ブロックが捕捉しました: スクリプトは CATCH ブロックで続行します。
why-error-uncaught = どの TRY ブロックも捕捉しなかったため、クライアントに返されました。
why-error-caught-exception = EXCEPTION ブロックが捕捉しました: 関数はそのハンドラーで続行します。
why-error-uncaught-exception = どの EXCEPTION ブロックも捕捉しなかったため、クライアントに返されました。
why-error-reached-client = リクエストにはエラーを処理する部分がありません。BTEQ は失敗を報告し、スクリプトの次のリクエストを送ります。

why-deadlock-title = { $victim } がデッドロックの犠牲者に選ばれた理由
why-deadlock-circle = { $cycle } は互いを循環して待っています: それぞれが次のセッションの保持するロックを待つため、どれも先に進めません。
why-deadlock-victim = デッドロック モニターは 1 つのトランザクションをロールバックして循環を断ちます。DEADLOCK_PRIORITY、次に取り消す作業の少なさで選ばれたのは { $victim } のトランザクションです。{ $victim } はエラー 1205 を受け取ります。

why-timeout-title = { $session } が待つのをやめた理由
why-timeout = { $session } は { $resource } を { $setting } の許す { $waited } だけ待ち、諦めました。その文はエラーになります。
why-nowait-title = { $session } が待たなかった理由
why-nowait = { $session } は { $resource } のロックを NOWAIT で要求しました。他のセッションが競合するロックを持っている場合、待たずにすぐエラーになります。
why-applock-timeout-title = { $session } がアプリケーションロックを得られなかった理由
why-applock-timeout = { $session } の sp_getapplock は { $resource } に { $mode } を求めましたが、{ $holders } が両立しないモードで保持しています。先に @LockTimeout が尽きたため、呼び出しは -1 を返します。エラーは発生せず、何もロールバックされません。次に何をするかは、戻り値を読むコードが決めます。
why-applock-someone = 別のセッション

why-dup-again = { $second } は { $values } を再び { $verb } ({ $table } { $key }{ $update }): { $first } は { $first_read }、{ $first_write } に { $verb }。{ $second } は { $second_read }
why-dup-by-update = 、UPDATE による
why-dup-read-at = { $time } に読み取り
why-dup-no-read = 先に読み取らず
why-dup-before-commit = 、{ $first } の書き込みが { $time } にコミットされる前でした。
why-dup-after-commit = 、{ $first } の書き込みが { $time } にコミットされた後でした。
why-dup-uncommitted = 、{ $first } の書き込みはコミットされていませんでした。
why-dup-read-was = { $session } の読み取りは { $statement }
why-dup-gap = 読み取りと書き込みを 2 つの文に分けると隙間が生まれます: 2 番目のセッションは最初のセッションの書き込みがコミットされる前に行を読み、それぞれが読んだ内容に基づいて動きました。
why-dup-both = { $table } ({ $first_key }) と { $table } ({ $key }) はどちらも { $values } です。

why-unmatched = { $session } は { $time } に { $table } { $key } ({ $values }) を { $verb }。実行の終わりに { $wanted } を持つ { $match_table } の行はありません。
why-unmatched-error = その後 { $session } は { $time } にエラー { $number } を受け取りました
why-unmatched-unrecorded = 。{ $match_table } の行が記録する前です。データベースの外で行われたことは取り消されません。
why-unmatched-finished = { $session } は、それを記録する { $match_table } の行を書かずに終了しました。
why-unmatched-nobody = { $match_table } だけでは、{ $table } { $key } が起きたことは誰にも分かりません。
why-unmatched-removed = { $by } は { $time } に { $wanted } の { $match_table } の行を削除し、それを止めるものはありませんでした。{ $table } { $key } は、もうない行を指しています。

why-lost-consumed = { $session } は { $time } に { $table } { $key } を消費しました
why-lost-got = 。取得した行: { $row }
why-lost-more = 。ほかに { $count } 行
why-lost-meaning = 行に対する処理が失敗しました
why-lost-committed = { $session } は { $time } にコミットしたため、消費は確定しました: 行は { $table } から消え、それに対して何をしたかを記録するものはありません。
why-lost-rollback = ROLLBACK なら、失敗した処理とともに消費を取り消し、行をキューに戻していました。
why-then-error = その後 { $session } は { $time } にエラー { $number } を受け取りました

why-kept-wrote = { $session } は { $table } { $keys } を { $verb }
why-kept-more = {" "}ほか { $count } 行
why-kept-at = {" "}({ $time })
why-kept-committed = 。この変更は { $time } にコミットされました。
why-kept-meaning = これらの行が記録する作業が失敗しました
why-kept-stay = { $table } の行は書かれたまま残り、作業が完了したと示します: 再試行の印を付けるものは何もありません。
