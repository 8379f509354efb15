//! Parser tests: the seed scripts verbatim (snapshots of the canonical printed form with
//! each statement's position), English variants, precedence, every error message with its
//! position, and a no-panic sweep over truncated and random inputs; then the same for the
//! Teradata dialect (seed 002 and the queue-table examples of the semantics reference).

use expect_test::{expect, Expect};
use lockstep_sql::ast::*;
use lockstep_sql::{line_col, parse_expr, parse_script, statement_label, Dialect};

const SCRIPTS: &[(&str, &str)] = &[
    (
        "seed000_block1_schema",
        include_str!("scripts/seed000_block1_schema.sql"),
    ),
    (
        "seed000_block2_readpast",
        include_str!("scripts/seed000_block2_readpast.sql"),
    ),
    (
        "seed000_block3_two_step",
        include_str!("scripts/seed000_block3_two_step.sql"),
    ),
    ("seed003_schema", include_str!("scripts/seed003_schema.sql")),
    (
        "seed003_no_lock",
        include_str!("scripts/seed003_no_lock.sql"),
    ),
    (
        "seed003_applock",
        include_str!("scripts/seed003_applock.sql"),
    ),
    (
        "seed003_sequential",
        include_str!("scripts/seed003_sequential.sql"),
    ),
    (
        "seed003_try_catch",
        include_str!("scripts/seed003_try_catch.sql"),
    ),
    (
        "seed003_control_query",
        include_str!("scripts/seed003_control_query.sql"),
    ),
    ("english_queue", include_str!("scripts/english_queue.sql")),
    (
        "english_sessions",
        include_str!("scripts/english_sessions.sql"),
    ),
    ("english_send", include_str!("scripts/english_send.sql")),
];

/// Teradata scripts: seed 002's examples verbatim (indented with the no-break spaces of the
/// page they come from), the queue-table examples of semantics.md Part B, and a lesson.
const TERADATA_SCRIPTS: &[(&str, &str)] = &[
    ("seed002_bt_et", include_str!("scripts/seed002_bt_et.sql")),
    (
        "seed002_implicit",
        include_str!("scripts/seed002_implicit.sql"),
    ),
    (
        "seed002_ansi_commit",
        include_str!("scripts/seed002_ansi_commit.sql"),
    ),
    (
        "teradata_queue_table",
        include_str!("scripts/teradata_queue_table.sql"),
    ),
    (
        "teradata_english",
        include_str!("scripts/teradata_english.sql"),
    ),
];

fn script(name: &str) -> &'static str {
    SCRIPTS
        .iter()
        .chain(TERADATA_SCRIPTS)
        .find(|(n, _)| *n == name)
        .map(|(_, s)| *s)
        .expect("known script")
}

fn parse(src: &str) -> Script {
    match parse_script(src, Dialect::TSql) {
        Ok(s) => s,
        Err(e) => panic!("{}", e.render(src)),
    }
}

/// Each statement as `-- line:col LABEL` and its canonical text; `GO` between batches.
fn summary(src: &str) -> String {
    let script = parse(src);
    let mut out = String::new();
    for (i, batch) in script.batches.iter().enumerate() {
        if i > 0 {
            out.push_str("GO\n");
        }
        for stmt in &batch.statements {
            let (line, col) = line_col(src, stmt.span.start);
            out.push_str(&format!(
                "-- {line}:{col} {}\n",
                statement_label(&stmt.kind)
            ));
            out.push_str(&format!("{stmt}\n"));
        }
    }
    out
}

fn check_script(name: &str, expect: Expect) {
    expect.assert_eq(&summary(script(name)));
}

fn error(src: &str) -> String {
    match parse_script(src, Dialect::TSql) {
        Ok(s) => panic!("expected an error, parsed:\n{s}"),
        Err(e) => e.render(src),
    }
}

fn check_error(src: &str, expect: Expect) {
    expect.assert_eq(&error(src));
}

/// The error with the source text its span covers.
fn check_error_span(src: &str, expect: Expect) {
    let e = parse_script(src, Dialect::TSql).unwrap_err();
    expect.assert_eq(&format!("{} [{}]", e.render(src), &src[e.span.clone()]));
}

// ---- seed 000 -------------------------------------------------------------------------------

#[test]
fn seed000_block1_schema() {
    check_script(
        "seed000_block1_schema",
        expect![[r#"
            -- 2:1 SET
            SET NOCOUNT ON
            -- 3:1 IF
            IF OBJECT_ID(N'dbo.przejecie_przyklad') IS NOT NULL
                DROP TABLE dbo.przejecie_przyklad
            -- 4:1 IF
            IF OBJECT_ID(N'dbo.zadanie_przyklad') IS NOT NULL
                DROP TABLE dbo.zadanie_przyklad
            GO
            -- 6:1 CREATE TABLE
            CREATE TABLE dbo.zadanie_przyklad (
                id int IDENTITY(1, 1) NOT NULL PRIMARY KEY,
                nazwa nvarchar(50) NOT NULL,
                ranga tinyint NOT NULL,
                aktywne bit NOT NULL DEFAULT (1),
                status varchar(10) NOT NULL DEFAULT ('nowe'),
                wlasciciel varchar(30) NULL,
                aktywowano datetime2(3) NOT NULL DEFAULT (SYSDATETIME()),
                przejeto datetime2(3) NULL
            )
            -- 16:1 CREATE INDEX
            CREATE INDEX ix_zadanie_kolejka ON dbo.zadanie_przyklad (ranga DESC, aktywowano, id) WHERE aktywne = 1 AND status = 'nowe'
            -- 18:1 CREATE TABLE
            CREATE TABLE dbo.przejecie_przyklad (
                id int IDENTITY(1, 1) PRIMARY KEY,
                proces varchar(10) NOT NULL,
                zadanie_id int NOT NULL,
                kiedy datetime2(3) NOT NULL DEFAULT (SYSDATETIME())
            )
            GO
            -- 26:1 CREATE PROCEDURE
            CREATE OR ALTER PROCEDURE dbo.nastepne_zadanie_bez_readpast_przyklad @operator varchar(30)
            AS
            BEGIN
                SET NOCOUNT ON;
                WITH nastepne AS (SELECT TOP (1) id, nazwa, ranga, status, wlasciciel, przejeto FROM dbo.zadanie_przyklad WITH (UPDLOCK, ROWLOCK) WHERE aktywne = 1 AND status = 'nowe' ORDER BY ranga DESC, aktywowano, id) UPDATE nastepne SET status = 'w_toku', wlasciciel = @operator, przejeto = SYSDATETIME() OUTPUT inserted.id, inserted.nazwa, inserted.ranga, inserted.wlasciciel;
            END;
        "#]],
    );
}

#[test]
fn seed000_block2_readpast() {
    check_script(
        "seed000_block2_readpast",
        expect![[r#"
        -- 1:1 CREATE PROCEDURE
        CREATE OR ALTER PROCEDURE dbo.nastepne_zadanie_przyklad @operator varchar(30)
        AS
        BEGIN
            SET NOCOUNT ON;
            WITH nastepne AS (SELECT TOP (1) id, nazwa, ranga, status, wlasciciel, przejeto FROM dbo.zadanie_przyklad WITH (UPDLOCK, READPAST, ROWLOCK) WHERE aktywne = 1 AND status = 'nowe' ORDER BY ranga DESC, aktywowano, id) UPDATE nastepne SET status = 'w_toku', wlasciciel = @operator, przejeto = SYSDATETIME() OUTPUT inserted.id, inserted.nazwa, inserted.ranga, inserted.wlasciciel;
        END;
    "#]],
    );
}

#[test]
fn seed000_block3_two_step() {
    check_script(
        "seed000_block3_two_step",
        expect![[r#"
            -- 2:1 DECLARE
            DECLARE @id int
            -- 3:1 SELECT
            SELECT TOP (1) @id = id FROM dbo.zadanie_przyklad WHERE aktywne = 1 AND status = 'nowe' ORDER BY ranga DESC, aktywowano, id
            -- 5:1 IF
            IF @id IS NOT NULL
            BEGIN
                WAITFOR DELAY '00:00:00.020';
                UPDATE dbo.zadanie_przyklad SET status = 'w_toku', wlasciciel = '$(proces)', przejeto = SYSDATETIME() WHERE id = @id;
            END
        "#]],
    );
}

// ---- seed 003 -------------------------------------------------------------------------------

#[test]
fn seed003_schema() {
    check_script(
        "seed003_schema",
        expect![[r#"
        -- 1:1 CREATE TABLE
        CREATE TABLE dbo.WysylkaDokumentu (
            Id int IDENTITY(1, 1) PRIMARY KEY,
            DokumentId int NOT NULL,
            Status varchar(20) NOT NULL,
            ZlecenieId int NULL
        )
        -- 7:1 CREATE INDEX
        CREATE UNIQUE INDEX UX_WysylkaDokumentu_WToku ON dbo.WysylkaDokumentu (DokumentId) WHERE Status = 'W_TOKU'
        -- 9:1 CREATE TABLE
        CREATE TABLE dbo.SystemZewnetrzny (
            ZlecenieId int IDENTITY(1000, 1) PRIMARY KEY,
            DokumentId int NOT NULL
        )
    "#]],
    );
}

#[test]
fn seed003_no_lock() {
    check_script(
        "seed003_no_lock",
        expect![[r#"
        -- 1:1 CREATE PROCEDURE
        CREATE PROCEDURE dbo.WyslijBezBlokady @DokumentId int
        AS
        BEGIN
            SET NOCOUNT ON;
            DECLARE @status varchar(20), @zlecenie int;
            SELECT TOP (1) @status = Status, @zlecenie = ZlecenieId FROM dbo.WysylkaDokumentu WHERE DokumentId = @DokumentId AND Status IN ('GOTOWE', 'W_TOKU') ORDER BY CASE Status WHEN 'GOTOWE' THEN 0 ELSE 1 END, Id DESC;
            IF @status IS NULL
            BEGIN
                WAITFOR DELAY '00:00:05';
                INSERT INTO dbo.SystemZewnetrzny (DokumentId) VALUES (@DokumentId);
                SET @zlecenie = SCOPE_IDENTITY();
                INSERT INTO dbo.WysylkaDokumentu (DokumentId, Status, ZlecenieId) VALUES (@DokumentId, 'W_TOKU', @zlecenie);
            END;
            SELECT CASE @status WHEN 'GOTOWE' THEN 2 ELSE 1 END AS Kod, ISNULL(@status, 'NOWY') AS StanWpisu, @zlecenie AS ZlecenieId;
        END;
    "#]],
    );
}

#[test]
fn seed003_applock() {
    check_script(
        "seed003_applock",
        expect![[r#"
        -- 1:1 CREATE PROCEDURE
        CREATE PROCEDURE dbo.WyslijDokument @DokumentId int, @Awaria bit = 0
        AS
        BEGIN
            SET NOCOUNT ON;
            DECLARE @zasob nvarchar(255) = N'Wysylka_' + CAST(@DokumentId AS nvarchar(20)), @blokada int, @status varchar(20), @zlecenie int;
            EXEC @blokada = sp_getapplock @zasob, 'Exclusive', 'Session', 0;
            IF @blokada < 0
            BEGIN
                SELECT 3 AS Kod, 'ZAJETE' AS StanWpisu, CAST(NULL AS int) AS ZlecenieId;
                RETURN;
            END;
            BEGIN TRY
                SELECT TOP (1) @status = Status, @zlecenie = ZlecenieId FROM dbo.WysylkaDokumentu WHERE DokumentId = @DokumentId AND Status IN ('GOTOWE', 'W_TOKU') ORDER BY CASE Status WHEN 'GOTOWE' THEN 0 ELSE 1 END, Id DESC;
                IF @status IS NULL
                BEGIN
                    WAITFOR DELAY '00:00:05';
                    IF @Awaria = 1
                        THROW 50001, N'Awaria wywolania', 1;
                    INSERT INTO dbo.SystemZewnetrzny (DokumentId) VALUES (@DokumentId);
                    SET @zlecenie = SCOPE_IDENTITY();
                    INSERT INTO dbo.WysylkaDokumentu (DokumentId, Status, ZlecenieId) VALUES (@DokumentId, 'W_TOKU', @zlecenie);
                END;
                SELECT CASE @status WHEN 'GOTOWE' THEN 2 ELSE 1 END AS Kod, ISNULL(@status, 'NOWY') AS StanWpisu, @zlecenie AS ZlecenieId;
            END TRY
            BEGIN CATCH
                EXEC sp_releaseapplock @zasob, 'Session';
                THROW;
            END CATCH;
            EXEC sp_releaseapplock @zasob, 'Session';
        END;
    "#]],
    );
}

#[test]
fn seed003_sequential() {
    check_script(
        "seed003_sequential",
        expect![[r#"
        -- 1:1 EXEC
        EXEC dbo.WyslijDokument @DokumentId = 1
        -- 2:1 EXEC
        EXEC dbo.WyslijDokument @DokumentId = 1
        -- 3:1 UPDATE
        UPDATE dbo.WysylkaDokumentu SET Status = 'GOTOWE' WHERE ZlecenieId = 1000 AND Status = 'W_TOKU'
        -- 4:1 EXEC
        EXEC dbo.WyslijDokument @DokumentId = 1
    "#]],
    );
}

#[test]
fn seed003_try_catch() {
    check_script(
        "seed003_try_catch",
        expect![[r#"
        -- 1:1 BEGIN TRY
        BEGIN TRY
            EXEC dbo.WyslijDokument @DokumentId = 4, @Awaria = 1;
        END TRY
        BEGIN CATCH
            SELECT ERROR_NUMBER() AS Blad;
        END CATCH
        -- 3:1 SELECT
        SELECT APPLOCK_MODE('public', N'Wysylka_4', 'Session') AS TrybBlokady
    "#]],
    );
}

#[test]
fn seed003_control_query() {
    check_script(
        "seed003_control_query",
        expect![[r#"
        -- 1:1 SELECT
        SELECT DokumentId, (SELECT COUNT(*) FROM dbo.SystemZewnetrzny AS s WHERE s.DokumentId = d.DokumentId) AS WywolaniaZewnetrzne, (SELECT COUNT(*) FROM dbo.WysylkaDokumentu AS w WHERE w.DokumentId = d.DokumentId AND w.Status = 'W_TOKU') AS WpisyWToku FROM (VALUES (2), (3)) AS d(DokumentId)
    "#]],
    );
}

// ---- English variants -------------------------------------------------------------------

#[test]
fn english_queue() {
    check_script(
        "english_queue",
        expect![[r#"
        -- 2:1 SET
        SET NOCOUNT ON
        -- 3:1 IF
        IF OBJECT_ID(N'dbo.claim') IS NOT NULL
            DROP TABLE dbo.claim
        -- 4:1 DROP TABLE
        DROP TABLE IF EXISTS dbo.task
        GO
        -- 6:1 CREATE TABLE
        CREATE TABLE dbo.task (
            id int IDENTITY(1, 1) NOT NULL PRIMARY KEY,
            name nvarchar(50) NOT NULL,
            rank tinyint NOT NULL,
            active bit NOT NULL DEFAULT (1),
            status varchar(20) NOT NULL DEFAULT ('new'),
            owner varchar(30) NULL,
            activated datetime2(3) NOT NULL DEFAULT (SYSDATETIME()),
            taken datetime2(3) NULL
        )
        -- 16:1 CREATE INDEX
        CREATE INDEX ix_task_queue ON dbo.task (rank DESC, activated, id) WHERE active = 1 AND status = 'new'
        -- 18:1 CREATE TABLE
        CREATE TABLE dbo.claim (
            id int IDENTITY(1, 1) PRIMARY KEY,
            process varchar(10) NOT NULL,
            task_id int NOT NULL,
            at datetime2(3) NOT NULL DEFAULT (SYSDATETIME())
        )
        GO
        -- 26:1 CREATE PROCEDURE
        CREATE OR ALTER PROCEDURE dbo.next_task @operator varchar(30)
        AS
        BEGIN
            SET NOCOUNT ON;
            WITH next AS (SELECT TOP (1) id, name, rank, status, owner, taken FROM dbo.task WITH (UPDLOCK, READPAST, ROWLOCK) WHERE active = 1 AND status = 'new' ORDER BY rank DESC, activated, id) UPDATE next SET status = 'in_progress', owner = @operator, taken = SYSDATETIME() OUTPUT inserted.id, inserted.name, inserted.rank, inserted.owner;
        END;
        GO
        -- 41:1 DECLARE
        DECLARE @i int = 1
        -- 42:1 WHILE
        WHILE @i <= 500
        BEGIN
            INSERT INTO dbo.task (name, rank) VALUES (CONCAT(N'task ', @i), 3 - @i % 3);
            SET @i = @i + 1;
        END
    "#]],
    );
}

#[test]
fn english_sessions() {
    check_script(
        "english_sessions",
        expect![[r#"
        -- 2:1 SET
        SET TRANSACTION ISOLATION LEVEL READ COMMITTED
        -- 3:1 SET
        SET LOCK_TIMEOUT 5000
        -- 4:1 SET
        SET DEADLOCK_PRIORITY LOW
        -- 5:1 SET
        SET XACT_ABORT ON
        -- 6:1 BEGIN TRAN
        BEGIN TRANSACTION
        -- 7:1 EXEC
        EXEC dbo.next_task @operator = 'A'
        -- 8:1 WAITFOR
        WAITFOR DELAY '00:00:04'
        -- 9:1 COMMIT
        COMMIT TRANSACTION
        GO
        -- 12:1 DECLARE
        DECLARE @id int, @retries int = 0
        -- 13:1 WHILE
        WHILE 1 = 1
        BEGIN
            SET @id = NULL;
            SELECT TOP (1) @id = id FROM dbo.task WHERE active = 1 AND status = 'new' ORDER BY rank DESC, activated, id;
            IF @id IS NULL
                BREAK;
            WAITFOR DELAY '00:00:00.020';
            UPDATE dbo.task SET status = 'in_progress', owner = 'p1', taken = SYSDATETIME() WHERE id = @id AND status = 'new';
            IF @@ROWCOUNT = 0
            BEGIN
                SET @retries = @retries + 1;
                CONTINUE;
            END;
            INSERT INTO dbo.claim (process, task_id) VALUES ('p1', @id);
        END
        -- 29:1 SELECT
        SELECT @retries AS retries
        GO
        -- 32:1 ALTER DATABASE
        ALTER DATABASE CURRENT SET READ_COMMITTED_SNAPSHOT ON WITH ROLLBACK IMMEDIATE
        -- 33:1 ALTER DATABASE
        ALTER DATABASE CURRENT SET ALLOW_SNAPSHOT_ISOLATION ON
        -- 34:1 SET
        SET TRANSACTION ISOLATION LEVEL SNAPSHOT
        -- 35:1 BEGIN TRAN
        BEGIN TRANSACTION claim_one
        -- 36:1 EXEC
        EXEC dbo.next_task 'B'
        -- 37:1 ROLLBACK
        ROLLBACK TRANSACTION claim_one
        GO
        -- 40:1 CREATE TRIGGER
        CREATE TRIGGER dbo.task_audit ON dbo.task AFTER UPDATE
        AS
        BEGIN
            SET NOCOUNT ON;
            INSERT INTO dbo.claim (process, task_id) SELECT i.owner, i.id FROM inserted AS i JOIN deleted AS d ON d.id = i.id WHERE d.status <> i.status;
        END;
        GO
        -- 49:1 DECLARE
        DECLARE @claimed TABLE (
            id int NOT NULL PRIMARY KEY,
            name nvarchar(50)
        )
        -- 50:1 UPDATE
        WITH next AS (SELECT TOP (1) id, name, status, owner FROM dbo.task WITH (UPDLOCK, READPAST, ROWLOCK) WHERE active = 1 AND status = 'new' ORDER BY rank DESC, activated, id) UPDATE next SET status = 'in_progress', owner = 'C' OUTPUT inserted.id, inserted.name INTO @claimed (id, name)
        -- 58:1 SELECT
        SELECT id, name FROM @claimed
        GO
        -- 61:1 SELECT
        SELECT COUNT(*) - COUNT(DISTINCT task_id) AS duplicates FROM dbo.claim
        -- 62:1 SELECT
        SELECT process, COUNT(*) AS claims FROM dbo.claim GROUP BY process HAVING COUNT(*) > 0 ORDER BY process
        -- 63:1 SELECT
        SELECT t.id, t.rank, c.process FROM dbo.task AS t LEFT JOIN dbo.claim AS c ON c.task_id = t.id WHERE t.status <> 'new' AND t.taken BETWEEN DATEADD(second, -10, SYSDATETIME()) AND SYSDATETIME() ORDER BY t.rank DESC, t.id
    "#]],
    );
}

#[test]
fn english_send() {
    check_script(
        "english_send",
        expect![[r#"
        -- 1:1 CREATE TABLE
        CREATE TABLE dbo.send (
            Id int IDENTITY(1, 1) PRIMARY KEY,
            DocumentId int NOT NULL,
            Status varchar(20) NOT NULL,
            OrderId int NULL
        )
        -- 7:1 CREATE INDEX
        CREATE UNIQUE INDEX UX_send_in_progress ON dbo.send (DocumentId) WHERE Status = 'IN_PROGRESS'
        -- 9:1 CREATE TABLE
        CREATE TABLE dbo.external_system (
            OrderId int IDENTITY(1000, 1) PRIMARY KEY,
            DocumentId int NOT NULL
        )
        GO
        -- 14:1 CREATE PROCEDURE
        CREATE PROCEDURE dbo.SendDocument @DocumentId int, @Fail bit = 0
        AS
        BEGIN
            SET NOCOUNT ON;
            DECLARE @resource nvarchar(255) = N'Send_' + CAST(@DocumentId AS nvarchar(20)), @lock int, @status varchar(20), @order int;
            EXEC @lock = sp_getapplock @Resource = @resource, @LockMode = 'Exclusive', @LockOwner = 'Session', @LockTimeout = 0;
            IF @lock < 0
            BEGIN
                SELECT 3 AS Code, 'BUSY' AS EntryState, CAST(NULL AS int) AS OrderId;
                RETURN;
            END;
            BEGIN TRY
                SELECT TOP (1) @status = Status, @order = OrderId FROM dbo.send WHERE DocumentId = @DocumentId AND Status IN ('DONE', 'IN_PROGRESS') ORDER BY CASE Status WHEN 'DONE' THEN 0 ELSE 1 END, Id DESC;
                IF @status IS NULL
                BEGIN
                    WAITFOR DELAY '00:00:05';
                    IF @Fail = 1
                        THROW 50001, N'Call failed', 1;
                    INSERT INTO dbo.external_system (DocumentId) VALUES (@DocumentId);
                    SET @order = SCOPE_IDENTITY();
                    INSERT INTO dbo.send (DocumentId, Status, OrderId) VALUES (@DocumentId, 'IN_PROGRESS', @order);
                END;
                SELECT CASE @status WHEN 'DONE' THEN 2 ELSE 1 END AS Code, ISNULL(@status, 'NEW') AS EntryState, @order AS OrderId;
            END TRY
            BEGIN CATCH
                EXEC sp_releaseapplock @Resource = @resource, @LockOwner = 'Session';
                THROW;
            END CATCH;
            EXEC sp_releaseapplock @resource, 'Session';
        END;
        GO
        -- 46:1 BEGIN TRY
        BEGIN TRY
            EXEC dbo.SendDocument @DocumentId = 4, @Fail = 1;
        END TRY
        BEGIN CATCH
            SELECT ERROR_NUMBER() AS Error, ERROR_MESSAGE() AS Message;
        END CATCH
        -- 48:1 SELECT
        SELECT APPLOCK_MODE('public', N'Send_4', 'Session') AS LockMode
        -- 49:1 SELECT
        SELECT DocumentId, (SELECT COUNT(*) FROM dbo.external_system AS s WHERE s.DocumentId = d.DocumentId) AS ExternalCalls, (SELECT COUNT(*) FROM dbo.send AS w WHERE w.DocumentId = d.DocumentId AND w.Status = 'IN_PROGRESS') AS InProgress FROM (VALUES (2), (3)) AS d(DocumentId)
    "#]],
    );
}

// ---- properties over all scripts ------------------------------------------------------

/// Printing and parsing again gives the same printed text: the printer is faithful.
#[test]
fn printed_form_parses_back_to_itself() {
    for (name, src) in SCRIPTS {
        let printed = parse(src).to_string();
        let again = parse_script(&printed, Dialect::TSql)
            .unwrap_or_else(|e| panic!("{name}: {}\n{printed}", e.render(&printed)))
            .to_string();
        assert_eq!(printed, again, "{name}");
    }
}

/// Statement spans cover their source text: they start at the statement's first word.
#[test]
fn statement_spans_point_at_the_source() {
    fn walk(src: &str, stmts: &[Stmt]) {
        for s in stmts {
            let text = &src[s.span.clone()];
            let label = statement_label(&s.kind);
            let first = label.split(' ').next().unwrap();
            let ok = text.to_ascii_uppercase().starts_with(first)
                || (label == "EXEC" && text.to_ascii_uppercase().starts_with("EXEC"))
                || (label == "SELECT" && text.to_ascii_uppercase().starts_with("WITH"))
                || (label == "UPDATE" && text.to_ascii_uppercase().starts_with("WITH"))
                || (label == "BEGIN TRY" && text.starts_with("BEGIN"));
            assert!(ok, "{label} span starts with {text:?}");
            assert!(!text.ends_with(';'), "{label} span includes its ';'");
            match &s.kind {
                StmtKind::Block(b) => walk(src, b),
                StmtKind::TryCatch { body, handler, .. } => {
                    walk(src, body);
                    walk(src, handler);
                }
                StmtKind::CreateProcedure(p) => walk(src, &p.body),
                StmtKind::CreateTrigger(t) => walk(src, &t.body),
                StmtKind::If {
                    then, otherwise, ..
                } => {
                    walk(src, std::slice::from_ref(then));
                    if let Some(o) = otherwise {
                        walk(src, std::slice::from_ref(o));
                    }
                }
                StmtKind::While { body, .. } => walk(src, std::slice::from_ref(body)),
                _ => {}
            }
        }
    }
    for (_, src) in SCRIPTS {
        for b in parse(src).batches {
            walk(src, &b.statements);
        }
    }
}

// ---- details that matter to the interpreter -------------------------------------------

/// The first statement of `src`, parsed after a DECLARE of the variables it names (a
/// batch must declare its variables before it uses them).
fn first_stmt(src: &str) -> StmtKind {
    let declared = declaring(src);
    let mut batch = parse(&declared).batches.remove(0);
    let skip = usize::from(declared.len() > src.len());
    batch.statements.remove(skip).kind
}

/// `src` after a DECLARE of every `@name` in it (none if it names none).
fn declaring(src: &str) -> String {
    let mut vars: Vec<String> = Vec::new();
    let bytes = src.as_bytes();
    for (i, _) in src.match_indices('@') {
        let prev_at = i > 0 && bytes[i - 1] == b'@';
        let next_at = bytes.get(i + 1) == Some(&b'@');
        if prev_at || next_at {
            continue;
        }
        let name: String = src[i..]
            .chars()
            .enumerate()
            .take_while(|(k, c)| *k == 0 || c.is_alphanumeric() || *c == '_')
            .map(|(_, c)| c)
            .collect();
        if name.len() > 1 && !vars.iter().any(|v| v.eq_ignore_ascii_case(&name)) {
            vars.push(name);
        }
    }
    if vars.is_empty() || src.trim_start().to_ascii_uppercase().starts_with("DECLARE") {
        return src.to_string();
    }
    let list: Vec<String> = vars.iter().map(|v| format!("{v} int")).collect();
    format!("DECLARE {};\n{src}", list.join(", "))
}

#[test]
fn select_variable_is_an_assignment_not_an_alias() {
    let StmtKind::Select(s) = first_stmt("SELECT @v = col FROM t") else {
        panic!()
    };
    assert!(matches!(&s.items[0], SelectItem::Assign { var, expr, .. }
            if var.value == "@v" && matches!(&expr.kind, ExprKind::Column(c) if c.name().value == "col")));
    // `x = expr` with a plain identifier is the T-SQL alias form.
    let StmtKind::Select(s) = first_stmt("SELECT total = a + b, c AS d, e f, 'lit' g FROM t")
    else {
        panic!()
    };
    let aliases: Vec<_> = s
        .items
        .iter()
        .map(|i| match i {
            SelectItem::Expr { alias, .. } => alias.as_ref().unwrap().value.clone(),
            _ => panic!(),
        })
        .collect();
    assert_eq!(aliases, ["total", "d", "f", "g"]);
}

#[test]
fn hints_in_both_forms() {
    let hints = |src: &str| -> Vec<String> {
        let StmtKind::Select(s) = first_stmt(src) else {
            panic!()
        };
        match &s.from[0].factor {
            TableFactor::Table { hints, .. } => hints.iter().map(|h| h.kind.to_string()).collect(),
            _ => panic!(),
        }
    };
    assert_eq!(
        hints("SELECT * FROM t WITH (UPDLOCK, READPAST, ROWLOCK)"),
        ["UPDLOCK", "READPAST", "ROWLOCK"]
    );
    // Spaces instead of commas: deprecated, and still taken by SQL Server.
    assert_eq!(
        hints("SELECT * FROM t WITH (UPDLOCK ROWLOCK, READPAST INDEX(ix))"),
        ["UPDLOCK", "ROWLOCK", "READPAST", "INDEX(ix)"]
    );
    assert_eq!(hints("SELECT * FROM t (NOLOCK)"), ["NOLOCK"]);
    assert_eq!(hints("SELECT * FROM t AS x WITH (holdlock)"), ["HOLDLOCK"]);
    assert_eq!(hints("SELECT * FROM t x (nolock)"), ["NOLOCK"]);
    assert_eq!(
        hints("SELECT * FROM t WITH (INDEX(ix_task_queue), FORCESEEK)"),
        ["INDEX(ix_task_queue)", "FORCESEEK"]
    );
}

#[test]
fn compound_assignments_are_desugared() {
    expect![[r#"
        DECLARE @i int, @s nvarchar(9), @n int, @v int;
        SET @i = @i + 1;
        SET @s = @s + N'x';
        SELECT @n = @n * 2;
        UPDATE t SET c = c - 1, @v = c = c + 1;"#]]
    .assert_eq(
        &parse("DECLARE @i int, @s nvarchar(9), @n int, @v int;\nSET @i += 1; SET @s += N'x'; SELECT @n *= 2; UPDATE t SET c -= 1, @v = c = c + 1")
            .to_string(),
    );
}

#[test]
fn identifiers_quotes_comments_and_strings() {
    let StmtKind::Select(s) = first_stmt(
        "select [dbo].[task].[id], \"status\", N'it''s' /* a /* nested */ comment */ from [dbo].[task] -- done",
    ) else {
        panic!()
    };
    let SelectItem::Expr { expr, .. } = &s.items[0] else {
        panic!()
    };
    let ExprKind::Column(c) = &expr.kind else {
        panic!()
    };
    let parts: Vec<_> = c.parts.iter().map(|p| p.value.as_str()).collect();
    assert_eq!(parts, ["dbo", "task", "id"]);
    let SelectItem::Expr { expr, .. } = &s.items[2] else {
        panic!()
    };
    assert_eq!(
        expr.kind,
        ExprKind::Literal(Literal::Str {
            value: "it's".into(),
            national: true
        })
    );
    // The sqlcmd variable in the seed stays text inside its string.
    let StmtKind::Update(u) = first_stmt("UPDATE t SET owner = '$(proces)'") else {
        panic!()
    };
    assert_eq!(
        u.assignments[0].value.kind,
        ExprKind::Literal(Literal::Str {
            value: "$(proces)".into(),
            national: false
        })
    );
}

#[test]
fn exec_arguments_positional_named_and_output() {
    let StmtKind::Exec(e) =
        first_stmt("EXEC @rc = dbo.p @zasob, 'Exclusive', -1, @x = 2, @out = @y OUTPUT, NULL")
    else {
        panic!()
    };
    assert_eq!(e.return_var.unwrap().value, "@rc");
    assert_eq!(e.procedure.to_string(), "dbo.p");
    let args: Vec<String> = e
        .args
        .iter()
        .map(|a| {
            format!(
                "{}{}{}",
                a.name
                    .as_ref()
                    .map_or(String::new(), |n| format!("{} = ", n.value)),
                a.value,
                if a.output { " OUTPUT" } else { "" }
            )
        })
        .collect();
    assert_eq!(
        args,
        [
            "@zasob",
            "'Exclusive'",
            "-1",
            "@x = 2",
            "@out = @y OUTPUT",
            "NULL"
        ]
    );
}

#[test]
fn data_types() {
    let StmtKind::Declare(decls) = first_stmt(
        "DECLARE @a tinyint, @b smallint, @c bigint, @d decimal(10, 2), @e numeric, @f float, \
         @g money, @h char(3), @i varchar(max), @j nchar, @k nvarchar(4000), @l datetime, \
         @m datetime2, @n date, @o time(3), @p uniqueidentifier, @q sysname, @r varchar",
    ) else {
        panic!()
    };
    let types: Vec<String> = decls.iter().map(|d| d.ty.to_string()).collect();
    expect![[r#"
        tinyint smallint bigint decimal(10, 2) decimal(18, 0) float money char(3) varchar(max) nchar(1) nvarchar(4000) datetime datetime2(7) date time(3) uniqueidentifier sysname varchar(1)"#]]
    .assert_eq(&types.join(" "));
    // In CAST and CONVERT a bare varchar is varchar(30), as in SQL Server.
    expect![[r#"CAST(1 AS varchar(30))"#]].assert_eq(
        &parse_expr("CAST(1 AS varchar)", Dialect::TSql)
            .unwrap()
            .to_string(),
    );
}

/// Parenthesised S-expressions show the tree the parser built.
fn sexpr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Binary { op, left, right } => {
            format!("({op:?} {} {})", sexpr(left), sexpr(right))
        }
        ExprKind::Unary { op, expr } => format!("({op:?} {})", sexpr(expr)),
        ExprKind::IsNull { expr, negated } => format!(
            "(IsNull{} {})",
            if *negated { "!" } else { "" },
            sexpr(expr)
        ),
        ExprKind::Between {
            expr,
            low,
            high,
            negated,
        } => format!(
            "(Between{} {} {} {})",
            if *negated { "!" } else { "" },
            sexpr(expr),
            sexpr(low),
            sexpr(high)
        ),
        ExprKind::InList {
            expr,
            list,
            negated,
        } => format!(
            "(In{} {} [{}])",
            if *negated { "!" } else { "" },
            sexpr(expr),
            list.iter().map(sexpr).collect::<Vec<_>>().join(" ")
        ),
        ExprKind::Like {
            expr,
            pattern,
            negated,
            ..
        } => {
            format!(
                "(Like{} {} {})",
                if *negated { "!" } else { "" },
                sexpr(expr),
                sexpr(pattern)
            )
        }
        _ => e.to_string(),
    }
}

fn tree(src: &str) -> String {
    sexpr(&parse_expr(src, Dialect::TSql).unwrap_or_else(|e| panic!("{}", e.render(src))))
}

#[test]
fn precedence() {
    expect![[r#"(Or (And (Eq a 1) (Eq b 2)) (Eq c 3))"#]]
        .assert_eq(&tree("a = 1 AND b = 2 OR c = 3"));
    expect![[r#"(And (Not (Eq a 1)) (Eq b 2))"#]].assert_eq(&tree("NOT a = 1 AND b = 2"));
    expect![[r#"(Eq (Add a (Mul b c)) (Sub (Sub d e) f))"#]]
        .assert_eq(&tree("a + b * c = d - e - f"));
    expect![[r#"(Mul -1 (Neg x))"#]].assert_eq(&tree("-1 * -x"));
    expect![[r#"(Mul (Add a b) c)"#]].assert_eq(&tree("(a + b) * c"));
    expect![[r#"(Or (Between x 1 (Add 2 3)) (In! y [1 2]))"#]]
        .assert_eq(&tree("x BETWEEN 1 AND 2 + 3 OR y NOT IN (1, 2)"));
    expect![[r#"(And (IsNull! @id) (Like! name N'x%'))"#]]
        .assert_eq(&tree("@id IS NOT NULL AND name NOT LIKE N'x%'"));
    expect![[r#"(BitOr (BitAnd a b) (Mod c 2))"#]].assert_eq(&tree("a & b | c % 2"));
    expect![[r#"(Add N'Wysylka_' CAST(@DokumentId AS nvarchar(20)))"#]]
        .assert_eq(&tree("N'Wysylka_' + CAST(@DokumentId AS nvarchar(20))"));
    expect![[r#"(Ge @@ROWCOUNT 0)"#]].assert_eq(&tree("@@rowcount >= 0"));
    expect![[r#"(Le a (Neg (Neg b)))"#]].assert_eq(&tree("a !> - -b"));
}

#[test]
fn functions_and_cases() {
    expect![
        "(Add (Add (Add COUNT(*) COUNT(DISTINCT task_id)) ISNULL(@s, 'NOWY')) COALESCE(a, b, c))"
    ]
    .assert_eq(&tree(
        "count(*) + count(distinct task_id) + isnull(@s, 'NOWY') + coalesce(a, b, c)",
    ));
    expect![[r#"CONVERT(varchar(10), SYSDATETIME(), 120)"#]]
        .assert_eq(&tree("CONVERT(varchar(10), SYSDATETIME(), 120)"));
    expect![[r#"ROW_NUMBER() OVER (PARTITION BY rank ORDER BY activated DESC)"#]].assert_eq(&tree(
        "ROW_NUMBER() OVER (PARTITION BY rank ORDER BY activated DESC)",
    ));
    expect![[r#"CASE WHEN a > 1 THEN 'x' WHEN a IS NULL THEN NULL ELSE 'y' END"#]].assert_eq(
        &tree("CASE WHEN a > 1 THEN 'x' WHEN a IS NULL THEN NULL ELSE 'y' END"),
    );
    expect![[r#"EXISTS (SELECT 1 FROM t WHERE t.id = @id)"#]]
        .assert_eq(&tree("EXISTS (SELECT 1 FROM t WHERE t.id = @id)"));
    expect![[r#"CURRENT_TIMESTAMP"#]].assert_eq(&tree("CURRENT_TIMESTAMP"));
    expect!["id IN (SELECT task_id FROM dbo.claim)"]
        .assert_eq(&tree("id IN (SELECT task_id FROM dbo.claim)"));
}

#[test]
fn statements_round_up() {
    let src = "\
DECLARE @t TABLE (a int);
DECLARE @i int;
SELECT DISTINCT TOP 5 PERCENT WITH TIES a FROM t ORDER BY a;
SELECT a FROM t UNION ALL SELECT b FROM u UNION SELECT c FROM v ORDER BY 1;
INSERT dbo.t DEFAULT VALUES;
INSERT INTO @t (a) SELECT a FROM u;
INSERT INTO dbo.log (a) EXEC dbo.p 1;
DELETE TOP (10) FROM dbo.t OUTPUT deleted.* INTO dbo.archive WHERE done = 1;
DELETE c FROM dbo.claim c JOIN dbo.task t ON t.id = c.task_id WHERE t.status = 'new';
UPDATE t SET t.status = 'x' FROM dbo.task AS t CROSS JOIN dbo.claim c WHERE c.task_id = t.id;
BEGIN TRAN t1 COMMIT WORK ROLLBACK
;;
IF 1 = 1 SELECT 1; ELSE SELECT 2
WHILE @i < 3 BEGIN SET @i = @i + 1 IF @i = 2 CONTINUE ELSE BREAK END
RAISERROR('bad %d', 16, 1, @i) WITH NOWAIT
PRINT N'done'
RETURN 0
TRUNCATE TABLE dbo.claim
DROP PROCEDURE IF EXISTS dbo.p, dbo.q
DROP INDEX IF EXISTS ix_task_queue ON dbo.task
SET DEADLOCK_PRIORITY -5
SET LOCK_TIMEOUT -1
SET STATISTICS IO ON
SET IMPLICIT_TRANSACTIONS OFF
SET ANSI_NULLS ON
SET QUOTED_IDENTIFIER OFF
CREATE UNIQUE CLUSTERED INDEX ux ON dbo.t (a DESC, b ASC) INCLUDE (c, d)
CREATE TABLE #t (a int CONSTRAINT df DEFAULT ((0)) CHECK (a >= 0), b varchar(5) UNIQUE NONCLUSTERED, CONSTRAINT pk PRIMARY KEY NONCLUSTERED (a), CHECK (b <> ''),)
DECLARE @tv TABLE (id int IDENTITY PRIMARY KEY, v nvarchar(max) NULL)
SELECT x.a, y.* FROM (SELECT a FROM t) AS x (a) CROSS APPLY (SELECT TOP (1) * FROM u WHERE u.a = x.a) y OUTER APPLY (VALUES (1, 2)) z (p, q)
";
    expect![[r#"
        DECLARE @t TABLE (
            a int
        );
        DECLARE @i int;
        SELECT DISTINCT TOP (5) PERCENT WITH TIES a FROM t ORDER BY a;
        SELECT a FROM t UNION ALL SELECT b FROM u UNION SELECT c FROM v ORDER BY 1;
        INSERT INTO dbo.t DEFAULT VALUES;
        INSERT INTO @t (a) SELECT a FROM u;
        INSERT INTO dbo.log (a) EXEC dbo.p 1;
        DELETE TOP (10) FROM dbo.t OUTPUT deleted.* INTO dbo.archive WHERE done = 1;
        DELETE FROM c FROM dbo.claim AS c JOIN dbo.task AS t ON t.id = c.task_id WHERE t.status = 'new';
        UPDATE t SET t.status = 'x' FROM dbo.task AS t CROSS JOIN dbo.claim AS c WHERE c.task_id = t.id;
        BEGIN TRANSACTION t1;
        COMMIT TRANSACTION;
        ROLLBACK TRANSACTION;
        ;
        IF 1 = 1
            SELECT 1
        ELSE
            SELECT 2;
        WHILE @i < 3
        BEGIN
            SET @i = @i + 1;
            IF @i = 2
                CONTINUE
            ELSE
                BREAK;
        END;
        RAISERROR('bad %d', 16, 1, @i) WITH NOWAIT;
        PRINT N'done';
        RETURN 0;
        TRUNCATE TABLE dbo.claim;
        DROP PROCEDURE IF EXISTS dbo.p, dbo.q;
        DROP INDEX IF EXISTS ix_task_queue ON dbo.task;
        SET DEADLOCK_PRIORITY -5;
        SET LOCK_TIMEOUT -1;
        SET STATISTICS IO ON;
        SET IMPLICIT_TRANSACTIONS OFF;
        SET ANSI_NULLS ON;
        SET QUOTED_IDENTIFIER OFF;
        CREATE UNIQUE CLUSTERED INDEX ux ON dbo.t (a DESC, b) INCLUDE (c, d);
        CREATE TABLE #t (
            a int DEFAULT (0) CHECK (a >= 0),
            b varchar(5) UNIQUE NONCLUSTERED,
            CONSTRAINT pk PRIMARY KEY NONCLUSTERED (a),
            CHECK (b <> '')
        );
        DECLARE @tv TABLE (
            id int IDENTITY(1, 1) PRIMARY KEY,
            v nvarchar(max) NULL
        );
        SELECT x.a, y.* FROM (SELECT a FROM t) AS x(a) CROSS APPLY (SELECT TOP (1) * FROM u WHERE u.a = x.a) AS y OUTER APPLY (VALUES (1, 2)) AS z(p, q);"#]].assert_eq(&parse(src).to_string());
}

// ---- errors ---------------------------------------------------------------------------------

#[test]
fn syntax_errors_list_what_was_expected() {
    check_error(
        "SELECT TOP (1) id FROM dbo.task WITH (UPDLOCK; READPAST, ROWLOCK)",
        expect!["1:46: found ';', expected one of: ',', a table hint, ')'"],
    );
    check_error(
        "SELECT id FROM dbo.task WITH (UPDLOCK, READPAST",
        expect!["1:48: unexpected end of input, expected one of: ',', a table hint, ')' (the '(' at column 30 is not closed)"],
    );
    check_error(
        "SELECT id FROM dbo.task WITH (BOGUS)",
        expect!["1:31: found 'BOGUS', expected a table hint"],
    );
    check_error(
        "SELECT id,\nFROM dbo.task",
        expect!["2:1: found 'FROM', expected one of: '*', an expression"],
    );
    check_error(
        "SELECT id FROM",
        expect!["1:15: unexpected end of input, expected one of: '(', a variable, an identifier"],
    );
    check_error(
        "UPDATE dbo.task status = 1",
        expect!["1:17: found 'status', expected one of: WITH, SET"],
    );
    check_error(
        "CREATE TABLE t (id int IDENTITY(1,1) NOT NULL PRIMARY KEY\n    name varchar(10))",
        expect!["2:5: found 'name', expected one of: CLUSTERED, NONCLUSTERED, CONSTRAINT, IDENTITY, NULL, NOT, DEFAULT, PRIMARY, UNIQUE, CHECK, ',', ')'"],
    );
    check_error(
        "DECLARE @x int; IF @x = 1\nBEGIN\n    SELECT 1;\n",
        expect!["3:14: unexpected end of input, expected one of: END, ';', a statement"],
    );
    check_error(
        "BEGIN TRY SELECT 1; END CATCH",
        expect!["1:25: found 'CATCH', expected TRY"],
    );
    check_error("SELECT a FROM t x y", expect!["1:19: found 'y', expected one of: WITH, '(', JOIN, INNER, LEFT, RIGHT, FULL, CROSS, OUTER, ',', WHERE, GROUP, HAVING, UNION, EXCEPT, INTERSECT, ORDER, ';', a statement"]);
    // A ')' that is missing names the '(' it would close; one that comes later does not.
    check_error(
        "SELECT * FROM t WHERE id IN (1, 2\nUPDATE t SET x = 1",
        expect!["2:1: found 'UPDATE', expected one of: an operator, ',', ')' (the '(' on the line above, at column 29, is not closed)"],
    );
    // The '(' the parser is inside is the one named, though a later ')' (the outer
    // one's) balances the count of one of them.
    check_error(
        "WITH next AS (\n    SELECT TOP (1) id\n    FROM t WITH (UPDLOCK READPAST ROWLOCK\n    WHERE id > 0\n)\nSELECT id FROM next",
        expect!["4:5: found 'WHERE', expected one of: ',', a table hint, ')' (the '(' on the line above, at column 17, is not closed)"],
    );
    check_error(
        "SELECT (1 + 2",
        expect!["1:14: unexpected end of input, expected one of: an operator, ')' (the '(' at column 8 is not closed)"],
    );
    check_error(
        "DECLARE @x varchar(9000)",
        expect!["1:20: 9000 is out of range for varchar: allowed 1 to 8000"],
    );
    check_error(
        "DECLARE @x strnig",
        expect!["1:12: unknown data type 'strnig'"],
    );
    check_error(
        "SELECT 1 GO",
        expect!["1:10: GO is a batch separator of client tools: put it alone on its own line"],
    );
    check_error("ELSE SELECT 1", expect!["1:1: ELSE without a matching IF"]);
    check_error(
        "DECLARE @a int; SELECT @a = 1, b FROM t",
        expect!["1:32: a SELECT that assigns to variables cannot also return columns"],
    );
    check_error(
        "EXEC p @a = 1 + 1",
        expect!["1:15: found '+', expected one of: OUTPUT, OUT, ',', ';', a statement"],
    );
    check_error(
        "SET NOCOUNT MAYBE",
        expect!["1:13: found 'MAYBE', expected one of: ON, OFF"],
    );
    check_error(
        "SELECT 1;\nCREATE PROCEDURE p AS SELECT 1",
        expect!["2:1: CREATE PROCEDURE must be the first statement in a batch (put GO before it)"],
    );
    check_error("SELECT 'abc", expect!["1:8: unterminated string literal"]);
    check_error(
        "SELECT 1 /* never /* closed */",
        expect!["1:10: unterminated comment"],
    );
    check_error(
        "SELECT [abc FROM t",
        expect!["1:8: unterminated quoted identifier"],
    );
    check_error(
        "SELECT 1 FROM t WHERE a = $(x)",
        expect!["1:27: not simulated: sqlcmd variable $(x) outside a string literal"],
    );
    check_error("SELECT ¤", expect!["1:8: unexpected character '¤'"]);
    // An earlier syntax error wins over a later lexical one.
    check_error(
        "SELECT FROM t WHERE a = 'oops",
        expect!["1:8: found 'FROM', expected one of: DISTINCT, ALL, TOP, '*', an expression"],
    );
    check_error(
        "SELECT x FROM t WHERE\n  y = 'oops",
        expect!["2:7: unterminated string literal"],
    );
}

#[test]
fn string_agg_within_group_and_other_functions() {
    expect!["STRING_AGG(name, ', ') WITHIN GROUP (ORDER BY id DESC, name)"].assert_eq(&tree(
        "string_agg(name, ', ') within group (order by id desc, name)",
    ));
    expect!["IIF(a > 1, 'x', CHOOSE(b, 'p', 'q'))"]
        .assert_eq(&tree("iif(a > 1, 'x', choose(b, 'p', 'q'))"));
    expect!["DATEDIFF(millisecond, @t0, SYSDATETIME())"]
        .assert_eq(&tree("DATEDIFF(millisecond, @t0, SYSDATETIME())"));
    expect![[r#"
        -- 1:1 SELECT
        SELECT id, status INTO #copy FROM dbo.task WHERE id > 1
        -- 2:1 CREATE TABLE
        CREATE TABLE #t (
            id int
        )
    "#]]
    .assert_eq(&summary(
        "SELECT id, status INTO #copy FROM dbo.task WHERE id > 1;\nCREATE TABLE #t (id int);",
    ));
    let src = "SELECT STRING_AGG(name, ',') WITHIN GROUP (ORDER BY id) FROM t;";
    let printed = parse(src).to_string();
    assert_eq!(parse(&printed).to_string(), printed);
    check_error_span(
        "SELECT PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY id) OVER () FROM t",
        expect!["1:29: not simulated: WITHIN GROUP of PERCENTILE_CONT [WITHIN]"],
    );
}

#[test]
fn tsql_merge_with_hints_conditions_and_by_target() {
    let src = "MERGE INTO dbo.send WITH (HOLDLOCK) AS t\nUSING (SELECT @id AS id, @body AS body) AS s ON t.id = s.id\nWHEN MATCHED AND t.sent = 0 THEN UPDATE SET body = s.body\nWHEN MATCHED THEN DELETE\nWHEN NOT MATCHED BY TARGET THEN INSERT (id, body) VALUES (s.id, s.body);";
    expect![[r#"
        -- 1:1 DECLARE
        DECLARE @id int, @body int
        -- 2:1 MERGE
        MERGE INTO dbo.send AS t WITH (HOLDLOCK) USING (SELECT @id AS id, @body AS body) AS s ON t.id = s.id WHEN MATCHED AND t.sent = 0 THEN UPDATE SET body = s.body WHEN MATCHED THEN DELETE WHEN NOT MATCHED THEN INSERT (id, body) VALUES (s.id, s.body)
    "#]].assert_eq(&summary(&declaring(src)));
    let printed = parse(&declaring(src)).to_string();
    assert_eq!(parse(&printed).to_string(), printed);
    check_error_span(
        "MERGE t USING s ON t.id = s.id WHEN MATCHED THEN DELETE WHEN MATCHED THEN DELETE;",
        expect!["1:57: only the last WHEN MATCHED clause of a MERGE may omit its AND condition [WHEN MATCHED THEN DELETE]"],
    );
}

#[test]
fn tsql_merge_output_names_each_rows_action() {
    let src = "MERGE t USING s ON t.id = s.id WHEN MATCHED THEN DELETE\nOUTPUT $action, deleted.id INTO log (act, id);";
    expect![[r#"
        -- 1:1 MERGE
        MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE OUTPUT $action, deleted.id INTO log (act, id)
    "#]].assert_eq(&summary(src));
    let printed = parse(src).to_string();
    assert_eq!(parse(&printed).to_string(), printed);
    check_error_span(
        "MERGE t USING s ON t.id = s.id WHEN MATCHED THEN DELETE OPTION (MAXDOP 1);",
        expect!["1:57: not simulated: MERGE ... OPTION [OPTION]"],
    );
}

#[test]
fn not_simulated_constructs_are_named_and_spanned() {
    check_error_span(
        "MERGE dbo.task AS t USING src ON t.id = src.id WHEN NOT MATCHED BY SOURCE THEN DELETE;",
        expect!["1:48: not simulated: WHEN NOT MATCHED BY SOURCE [WHEN NOT MATCHED BY SOURCE]"],
    );
    check_error_span(
        "DECLARE c CURSOR FOR SELECT id FROM dbo.task;",
        expect!["1:9: not simulated: cursors [c CURSOR]"],
    );
    check_error_span(
        "DECLARE @c CURSOR;",
        expect!["1:9: not simulated: cursors [@c CURSOR]"],
    );
    check_error_span(
        "FETCH NEXT FROM c INTO @id;",
        expect!["1:1: not simulated: cursors [FETCH]"],
    );
    check_error_span(
        "BULK INSERT dbo.task FROM 'x.csv';",
        expect!["1:1: not simulated: BULK INSERT [BULK INSERT]"],
    );
    check_error_span("DBCC CHECKDB;", expect!["1:1: not simulated: DBCC [DBCC]"]);
    check_error_span(
        "DECLARE @t TABLE (id int); DELETE FROM @t WHERE id = 1;",
        expect!["1:40: not simulated: DELETE from a table variable [@t]"],
    );
    check_error_span(
        "DECLARE @t TABLE (id int); UPDATE @t SET id = 2;",
        expect!["1:35: not simulated: UPDATE of a table variable [@t]"],
    );
    check_error_span(
        "GRANT SELECT ON dbo.task TO worker;",
        expect!["1:1: not simulated: GRANT [GRANT]"],
    );
    check_error_span(
        "DISABLE TRIGGER t_task ON dbo.task;",
        expect!["1:1: not simulated: DISABLE TRIGGER [DISABLE TRIGGER]"],
    );
    check_error_span(
        "SELECT id INTO @copy FROM dbo.task;",
        expect!["1:11: not simulated: SELECT INTO [INTO @copy]"],
    );
    check_error_span(
        "WAITFOR TIME '22:00';",
        expect!["1:1: not simulated: WAITFOR TIME [WAITFOR TIME '22:00']"],
    );
    check_error_span(
        "SELECT * FROM dbo.task OPTION (MAXDOP 1)",
        expect!["1:24: not simulated: query hints (OPTION) [OPTION]"],
    );
    check_error_span(
        "SELECT * FROM dbo.fn(1)",
        expect!["1:15: not simulated: table-valued functions [dbo.fn]"],
    );
    check_error_span(
        "SELECT dbo.fn(1)",
        expect!["1:8: not simulated: user-defined functions [dbo.fn]"],
    );
    check_error_span(
        "CREATE VIEW v AS SELECT 1",
        expect!["1:1: not simulated: CREATE VIEW [CREATE VIEW]"],
    );
    check_error_span(
        "ALTER TABLE t ADD c int",
        expect!["1:1: not simulated: ALTER TABLE [ALTER TABLE]"],
    );
    check_error_span(
        "SAVE TRANSACTION @s",
        expect!["1:18: not simulated: a savepoint name in a variable [@s]"],
    );
    check_error_span(
        "EXEC ('SELECT 1')",
        expect!["1:1: not simulated: dynamic SQL (EXEC (...)) [EXEC (]"],
    );
    check_error_span(
        "GOTO done",
        expect!["1:1: not simulated: labels and GOTO [GOTO]"],
    );
    check_error_span(
        "SET ROWCOUNT 10",
        expect!["1:5: not simulated: SET ROWCOUNT [ROWCOUNT]"],
    );
    check_error_span(
        "SELECT * FROM t WITH (NOEXPAND)",
        expect!["1:23: not simulated: table hint NOEXPAND [NOEXPAND]"],
    );
    check_error_span(
        "SELECT * FROM t WITH (XLOCK, PAGLOCK)",
        expect!["1:30: not simulated: table hint PAGLOCK [PAGLOCK]"],
    );
    check_error_span(
        "CREATE TABLE t (a int REFERENCES u (a))",
        expect!["1:23: not simulated: column option REFERENCES [REFERENCES]"],
    );
    check_error_span(
        "SELECT 0x1F",
        expect!["1:8: not simulated: binary literals [0x1F]"],
    );
    check_error_span(
        "GO 5",
        expect!["1:1: not simulated: GO with a repeat count [GO 5]"],
    );
}

#[test]
fn teradata_syntax_is_rejected_in_tsql() {
    check_error_span("SELECT AND CONSUME TOP 1 * FROM q", expect!["1:1: not simulated: SELECT AND CONSUME (Teradata syntax; this lesson's dialect is T-SQL) [SELECT AND CONSUME]"]);
    check_error_span(
        "BT;\nSELECT 1;\nET;",
        expect!["1:1: not simulated: BT (Teradata syntax; this lesson's dialect is T-SQL) [BT]"],
    );
    check_error_span(
        "LOCKING ROW FOR ACCESS SELECT * FROM q",
        expect!["1:1: not simulated: LOCKING (Teradata syntax; this lesson's dialect is T-SQL) [LOCKING]"],
    );
    check_error_span(
        "SEL * FROM q",
        expect!["1:1: not simulated: SEL (Teradata syntax; this lesson's dialect is T-SQL) [SEL]"],
    );
    check_error_span(
        "INSERT INTO tgt SELECT AND CONSUME TOP 1 * FROM q",
        expect!["1:17: not simulated: SELECT AND CONSUME (Teradata syntax; this lesson's dialect is T-SQL) [SELECT AND CONSUME]"],
    );
    check_error_span(
        "ABORT;",
        expect![
            "1:1: not simulated: ABORT (Teradata syntax; this lesson's dialect is T-SQL) [ABORT]"
        ],
    );
    check_error_span(
        "CREATE SET TABLE q (a int)",
        expect!["1:1: not simulated: CREATE SET TABLE (Teradata syntax; this lesson's dialect is T-SQL) [CREATE SET TABLE]"],
    );
    check_error_span(
        "CREATE TABLE qtbl_1, QUEUE (col_1 datetime2(6))",
        expect!["1:20: not simulated: table options (, QUEUE) (Teradata syntax; this lesson's dialect is T-SQL) [, QUEUE]"],
    );
    check_error_span(
        "CREATE TABLE q (a int) PRIMARY INDEX (a)",
        expect!["1:24: not simulated: PRIMARY INDEX (Teradata syntax; this lesson's dialect is T-SQL) [PRIMARY]"],
    );
    // The same statements are Teradata.
    for src in [
        "SELECT AND CONSUME TOP 1 * FROM q",
        "BT;\nSELECT 1;\nET;",
        "LOCKING ROW FOR ACCESS SELECT * FROM q",
        "SEL * FROM q",
        "ABORT;",
    ] {
        if let Err(e) = parse_script(src, Dialect::Teradata) {
            panic!("{src}: {}", e.render(src));
        }
    }
}

/// Runs `f` on a thread with wasm32's default 1 MiB stack: the depth limit must hold there.
fn on_wasm_sized_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn nesting_just_below_the_limit_fits_a_small_stack() {
    on_wasm_sized_stack(|| {
        // The deepest accepted input of each kind parses without overflowing.
        for n in (1..200).rev() {
            let src = format!("SELECT {}1{}", "(SELECT ".repeat(n), ")".repeat(n));
            if parse_script(&src, Dialect::TSql).is_ok() {
                assert!(n >= 30, "only {n} nested subqueries");
                break;
            }
        }
        for n in (1..200).rev() {
            let src = format!("{}SELECT (((1)))", "IF 1 = 1 BEGIN ".repeat(n)) + &" END".repeat(n);
            if parse_script(&src, Dialect::TSql).is_ok() {
                assert!(n >= 30, "only {n} nested blocks");
                break;
            }
        }
        for n in (1..200).rev() {
            let src = format!("SELECT {}1{}", "-(".repeat(n), ")".repeat(n));
            if parse_script(&src, Dialect::TSql).is_ok() {
                assert!(n >= 30, "only {n} nested parentheses");
                break;
            }
        }
    });
}

#[test]
fn nesting_is_bounded() {
    let deep_parens = format!("SELECT {}1{}", "(".repeat(10_000), ")".repeat(10_000));
    let deep_minus = format!("SELECT {}1", "- ".repeat(10_000));
    let deep_not = format!("SELECT 1 WHERE {}1 = 1", "NOT ".repeat(10_000));
    let deep_begin = format!(
        "{}SELECT 1{}",
        "BEGIN ".repeat(10_000),
        " END".repeat(10_000)
    );
    let deep_if = format!("{}SELECT 1", "IF 1 = 1 ".repeat(10_000));
    let deep_subquery = format!(
        "SELECT {}1{}",
        "(SELECT ".repeat(10_000),
        ")".repeat(10_000)
    );
    for src in [
        deep_parens,
        deep_minus,
        deep_not,
        deep_begin,
        deep_if,
        deep_subquery,
    ] {
        let e = parse_script(&src, Dialect::TSql).unwrap_err();
        assert!(e.message.ends_with("nested too deeply"), "{}", e.message);
    }
    // Realistic nesting is far below the limit.
    let ok = format!("SELECT {}1{}", "(".repeat(40), ")".repeat(40));
    parse(&ok);
}

#[test]
fn go_separates_batches_only_alone_on_its_line() {
    let src =
        "\u{feff}SELECT 1\r\ngo\r\nSELECT 2\nGO -- end of batch 2\n\nGO\n  GO  \nSELECT 'GO\nGO'\n";
    let script = parse(src);
    let batches: Vec<String> = script.batches.iter().map(|b| b.to_string()).collect();
    assert_eq!(batches, ["SELECT 1;", "SELECT 2;", "SELECT 'GO\nGO';"]);
    // Batch spans cover their statements; positions are in the whole script.
    let b = &script.batches[1];
    assert_eq!(&src[b.span.clone()], "SELECT 2");
    assert_eq!(line_col(src, b.span.start), (3, 1));
    // A GO inside a batch is not a separator: SQL Server would see the word GO.
    check_error(
        "SELECT 1 AS x GO",
        expect!["1:15: GO is a batch separator of client tools: put it alone on its own line"],
    );
    // BEGIN ... END cannot span batches.
    check_error("BEGIN\nSELECT 1\nGO\nEND", expect!["3:1: unexpected end of the batch, expected one of: an operator, AS, an alias, ',', FROM, WHERE, GROUP, HAVING, UNION, EXCEPT, INTERSECT, ORDER, ';', END, a statement (the GO on line 3 ends it: GO splits a script into batches, so a procedure's body or a BEGIN ... END cannot hold one)"]);
}

#[test]
fn line_col_counts_chars_from_one() {
    let src = "ab\nżółw x";
    assert_eq!(line_col(src, 0), (1, 1));
    assert_eq!(line_col(src, 3), (2, 1));
    assert_eq!(line_col(src, src.find('x').unwrap()), (2, 6));
    assert_eq!(line_col(src, 1000), (2, 7));
}

// ---- robustness -------------------------------------------------------------------------------

/// A small deterministic generator: no dependencies, same inputs every run.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn must_not_panic(src: &str) {
    let result = std::panic::catch_unwind(|| {
        for dialect in [Dialect::TSql, Dialect::Teradata] {
            let _ = parse_script(src, dialect);
            let _ = parse_expr(src, dialect);
        }
    });
    assert!(result.is_ok(), "panicked on {src:?}");
}

#[test]
fn truncated_scripts_never_panic() {
    let all = SCRIPTS
        .iter()
        .map(|s| (s, Dialect::TSql))
        .chain(TERADATA_SCRIPTS.iter().map(|s| (s, Dialect::Teradata)));
    for ((_, src), dialect) in all {
        for (i, _) in src.char_indices() {
            must_not_panic(&src[..i]);
            if let Err(e) = parse_script(&src[..i], dialect) {
                assert!(e.span.start <= i && e.span.end <= i, "span past the end");
            }
        }
    }
}

#[test]
fn random_inputs_never_panic() {
    let mut rng = XorShift(0x5EED_1234_ABCD_0001);
    // Random bytes, made valid UTF-8 lossily.
    for _ in 0..2_000 {
        let len = rng.below(64);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        must_not_panic(&String::from_utf8_lossy(&bytes));
    }
    // Random token soup from the grammar's own words reaches deep into the parser.
    let words: Vec<&str> = SCRIPTS
        .iter()
        .chain(TERADATA_SCRIPTS)
        .flat_map(|(_, s)| s.split_whitespace())
        .chain([
            "(",
            ")",
            ",",
            ";",
            "@x",
            "@@ROWCOUNT",
            "'s'",
            "N'n'",
            "1",
            "-",
            "+",
            "*",
            "=",
            "<",
            "IS",
            "NOT",
            "NULL",
            "IN",
            "BETWEEN",
            "LIKE",
            "AND",
            "OR",
            "CASE",
            "WHEN",
            "THEN",
            "ELSE",
            "END",
            "GO\n",
            "\nGO\n",
            "[q]",
            "\"q\"",
            "/*",
            "*/",
            "--",
            "'",
            "TOP",
            "WITH",
            "OUTPUT",
            "INTO",
            "FROM",
            "JOIN",
            "ON",
            "EXEC",
            "DECLARE",
            "TABLE",
            "SET",
            "UNION",
            "VALUES",
            "BEGIN",
            "TRY",
            "CATCH",
            "TRAN",
            ".",
            "*",
            "0x",
            "$(",
            ":",
            // Teradata
            "SEL",
            "AND CONSUME",
            "SELECT AND CONSUME TOP 1",
            "LOCKING",
            "ROW",
            "FOR",
            "ACCESS",
            "WRITE",
            "NOWAIT",
            "BT;\n",
            "ET;\n",
            ";\n",
            "; ",
            "QUEUE",
            "PRIMARY INDEX",
            "MERGE",
            "USING",
            "MATCHED",
            "MOD",
            "||",
            "DATE",
            "'2024-01-01'",
            ".LOGON",
            "\u{a0}",
        ])
        .collect();
    // LOCKSTEP_FUZZ_ROUNDS=1000000 for a longer local run.
    let rounds = std::env::var("LOCKSTEP_FUZZ_ROUNDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(20_000);
    for _ in 0..rounds {
        let len = 1 + rng.below(30);
        let src: Vec<&str> = (0..len).map(|_| words[rng.below(words.len())]).collect();
        must_not_panic(&src.join(" "));
    }
}

/// Not an assertion: prints how long the seed scripts take to parse (for the report).
#[test]
fn parse_time_of_the_seed_scripts() {
    let seeds: Vec<&str> = SCRIPTS
        .iter()
        .filter(|(n, _)| n.starts_with("seed"))
        .map(|(_, s)| *s)
        .collect();
    let bytes: usize = seeds.iter().map(|s| s.len()).sum();
    let rounds = 200;
    let start = std::time::Instant::now();
    for _ in 0..rounds {
        for s in &seeds {
            std::hint::black_box(parse_script(s, Dialect::TSql).unwrap());
        }
    }
    let per_round = start.elapsed() / rounds;
    eprintln!(
        "parsed {} seed scripts ({bytes} bytes) in {per_round:?} per round",
        seeds.len()
    );
}

// ---- Teradata ---------------------------------------------------------------------------------

fn td_parse(src: &str) -> Script {
    match parse_script(src, Dialect::Teradata) {
        Ok(s) => s,
        Err(e) => panic!("{}", e.render(src)),
    }
}

/// Each request as `== request N`, then its statements as `-- line:col LABEL` and their
/// canonical Teradata text.
fn td_summary(src: &str) -> String {
    let script = td_parse(src);
    let mut out = String::new();
    for (i, batch) in script.batches.iter().enumerate() {
        out.push_str(&format!("== request {}\n", i + 1));
        for stmt in &batch.statements {
            let (line, col) = line_col(src, stmt.span.start);
            out.push_str(&format!(
                "-- {line}:{col} {}\n",
                statement_label(&stmt.kind)
            ));
            out.push_str(&format!("{}\n", stmt.to_sql(Dialect::Teradata)));
        }
    }
    out
}

fn check_td_script(name: &str, expect: Expect) {
    expect.assert_eq(&td_summary(script(name)));
}

/// The Teradata error with the source text its span covers.
fn td_error(src: &str) -> String {
    match parse_script(src, Dialect::Teradata) {
        Ok(s) => panic!(
            "expected an error, parsed:\n{}",
            s.to_sql(Dialect::Teradata)
        ),
        Err(e) => format!("{} [{}]", e.render(src), &src[e.span.clone()]),
    }
}

fn check_td_error(src: &str, expect: Expect) {
    expect.assert_eq(&td_error(src));
}

fn td_first_stmt(src: &str) -> StmtKind {
    td_parse(src).batches.remove(0).statements.remove(0).kind
}

#[test]
fn teradata_seed002_bt_et() {
    // BEGIN/END TRANSACTION and three consumes, each ending its line: five requests.
    check_td_script(
        "seed002_bt_et",
        expect![[r#"
        == request 1
        -- 1:9 BEGIN TRANSACTION
        BEGIN TRANSACTION
        == request 2
        -- 2:7 SELECT AND CONSUME
        SELECT AND CONSUME TOP 1 * FROM myqueue
        == request 3
        -- 5:7 SELECT AND CONSUME
        SELECT AND CONSUME TOP 1 * FROM myqueue
        == request 4
        -- 8:7 SELECT AND CONSUME
        SELECT AND CONSUME TOP 1 * FROM myqueue
        == request 5
        -- 10:5 END TRANSACTION
        END TRANSACTION
    "#]],
    );
}

#[test]
fn teradata_seed002_implicit() {
    check_td_script(
        "seed002_implicit",
        expect![[r#"
        == request 1
        -- 1:9 SELECT AND CONSUME
        SELECT AND CONSUME TOP 1 col_1_qits, qsn FROM myqueue
        == request 2
        -- 4:5 SELECT AND CONSUME
        SELECT AND CONSUME TOP 1 col_1_qits, USER, CURRENT_TIMESTAMP FROM myqueue
        == request 3
        -- 7:5 SELECT AND CONSUME
        SELECT AND CONSUME TOP 1 * FROM myqueue
    "#]],
    );
}

#[test]
fn teradata_seed002_ansi_commit() {
    check_td_script(
        "seed002_ansi_commit",
        expect![[r#"
        == request 1
        -- 1:9 SELECT AND CONSUME
        SELECT AND CONSUME TOP 1 * FROM myqueue
        == request 2
        -- 4:5 SELECT AND CONSUME
        SELECT AND CONSUME TOP 1 * FROM myqueue
        == request 3
        -- 7:5 COMMIT
        COMMIT
    "#]],
    );
}

#[test]
fn teradata_queue_table_examples() {
    check_td_script(
        "teradata_queue_table",
        expect![[r#"
        == request 1
        -- 1:1 CREATE TABLE
        CREATE SET TABLE qtbl_1, QUEUE, FALLBACK, NO BEFORE JOURNAL, NO AFTER JOURNAL (
            col_1 TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
            col_2 INTEGER,
            col_3 INTEGER
        ) PRIMARY INDEX (col_2, col_3)
        == request 2
        -- 2:1 INSERT
        INSERT INTO tgt SELECT AND CONSUME TOP 1 * FROM q
        == request 3
        -- 3:1 DELETE
        DELETE FROM tempTbl
        == request 4
        -- 4:1 INSERT
        INSERT INTO tempTbl SELECT AND CONSUME TOP 1 * FROM qTbl
        == request 5
        -- 6:1 SELECT
        SELECT c.name, t.customerId, t.orderId FROM tempTbl AS t, customer AS c WHERE t.customerId = c.customerId
    "#]],
    );
}

#[test]
fn teradata_english() {
    check_td_script(
        "teradata_english",
        expect![[r#"
        == request 1
        -- 2:1 CREATE TABLE
        CREATE MULTISET TABLE job_queue, QUEUE, NO FALLBACK (
            qits TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
            job_id INTEGER NOT NULL,
            payload VARCHAR(100),
            producer CHAR(2)
        ) PRIMARY INDEX (job_id)
        == request 2
        -- 8:1 CREATE TABLE
        CREATE TABLE job_log (
            job_id INTEGER,
            consumer VARCHAR(30),
            taken TIMESTAMP(6),
            tries BYTEINT DEFAULT 0
        ) UNIQUE PRIMARY INDEX (job_id)
        == request 3
        -- 12:1 INSERT
        INSERT INTO job_queue (job_id, payload, producer) VALUES (1, 'first', 'p1')
        == request 4
        -- 13:1 INSERT
        INSERT INTO job_queue VALUES (CURRENT_TIMESTAMP(6), 2, 'second', 'p2')
        == request 5
        -- 14:1 INSERT
        INSERT INTO job_queue VALUES (CAST('2024-01-01 00:00:00' AS TIMESTAMP(6)), 3, 'third', 'p3')
        == request 6
        -- 17:1 SELECT AND CONSUME
        SELECT AND CONSUME TOP 1 * FROM job_queue
        == request 7
        -- 18:1 SELECT AND CONSUME
        SELECT AND CONSUME TOP 1 job_id, payload, USER, CURRENT_TIMESTAMP FROM job_queue
        == request 8
        -- 21:1 BT
        BT
        == request 9
        -- 22:1 LOCKING
        LOCKING ROW FOR WRITE SELECT AND CONSUME TOP 1 job_id FROM job_queue
        == request 10
        -- 23:1 INSERT
        INSERT INTO job_log (job_id, consumer, taken) VALUES (2, USER, CURRENT_TIMESTAMP)
        == request 11
        -- 24:1 ET
        ET
        == request 12
        -- 27:1 LOCKING
        LOCKING TABLE job_log FOR WRITE NOWAIT INSERT INTO job_log (job_id) SELECT AND CONSUME TOP 1 job_id FROM job_queue
        == request 13
        -- 30:1 SELECT AND CONSUME
        SELECT AND CONSUME TOP 1 * FROM job_queue
        -- 30:44 UPDATE
        UPDATE job_log SET tries = tries + 1 WHERE job_id = 1
        == request 14
        -- 33:1 LOCKING
        LOCKING TABLE job_queue FOR ACCESS SELECT TOP 5 qits, job_id FROM job_queue ORDER BY qits
        == request 15
        -- 35:1 UPDATE
        UPDATE job_queue SET payload = 'retry' WHERE job_id MOD 2 = 0
        == request 16
        -- 36:1 DELETE
        DELETE FROM job_queue WHERE job_id > 100
        == request 17
        -- 37:1 DELETE
        DELETE FROM job_log
        == request 18
        -- 38:1 MERGE
        MERGE INTO job_log AS l USING job_queue AS q ON l.job_id = q.job_id WHEN MATCHED THEN UPDATE SET consumer = 'merged' WHEN NOT MATCHED THEN INSERT (job_id, consumer) VALUES (q.job_id, 'new')
        == request 19
        -- 43:1 SELECT AND CONSUME
        SELECT AND CONSUME TOP 1 * FROM job_queue
        == request 20
        -- 44:1 ROLLBACK WORK
        ROLLBACK WORK
        == request 21
        -- 45:1 SELECT AND CONSUME
        SELECT AND CONSUME TOP 1 * FROM job_queue
        == request 22
        -- 46:1 COMMIT WORK
        COMMIT WORK
        == request 23
        -- 47:1 ABORT
        ABORT
        == request 24
        -- 48:1 DROP TABLE
        DROP TABLE job_log
    "#]],
    );
}

/// Printing in Teradata and parsing again gives the same printed text and requests.
#[test]
fn teradata_printed_form_parses_back_to_itself() {
    for (name, src) in TERADATA_SCRIPTS {
        let script = td_parse(src);
        let printed = script.to_sql(Dialect::Teradata);
        let again = parse_script(&printed, Dialect::Teradata)
            .unwrap_or_else(|e| panic!("{name}: {}\n{printed}", e.render(&printed)));
        assert_eq!(printed, again.to_sql(Dialect::Teradata), "{name}");
        let shape =
            |s: &Script| -> Vec<usize> { s.batches.iter().map(|b| b.statements.len()).collect() };
        assert_eq!(shape(&script), shape(&again), "{name}: requests");
    }
}

/// Statement spans start at the statement's first word (Teradata's abbreviations allowed)
/// and requests cover their statements.
#[test]
fn teradata_statement_spans_point_at_the_source() {
    for (name, src) in TERADATA_SCRIPTS {
        for b in td_parse(src).batches {
            let first = b.statements.first().unwrap();
            let last = b.statements.last().unwrap();
            assert!(b.span.start == first.span.start && b.span.end >= last.span.end);
            for s in &b.statements {
                let text = src[s.span.clone()].to_ascii_uppercase();
                let label = statement_label(&s.kind);
                let first_word = label.split(' ').next().unwrap();
                let abbreviation = match first_word {
                    "SELECT" => "SEL",
                    "INSERT" => "INS",
                    "UPDATE" => "UPD",
                    "DELETE" => "DEL",
                    "CREATE" => "CT",
                    other => other,
                };
                assert!(
                    text.starts_with(first_word) || text.starts_with(abbreviation),
                    "{name}: {label} span starts with {text:?}"
                );
                assert!(
                    !text.ends_with(';'),
                    "{name}: {label} span includes its ';'"
                );
            }
        }
    }
}

#[test]
fn teradata_requests_are_grouped_by_line() {
    let src = "SELECT AND CONSUME TOP 1 * FROM q; UPDATE q SET c = 1;\n\
               SELECT AND CONSUME TOP 1 *\n  FROM q;\n\
               BT; SEL 1; ET; -- one request, then the comment\n\
               INS q (CURRENT_TIMESTAMP, 1); /* same line */ INS q (CURRENT_TIMESTAMP, 2);\n\
               SELECT 1;\n\
               ;\n\
               SELECT 2";
    let script = td_parse(src);
    let requests: Vec<Vec<&str>> = script
        .batches
        .iter()
        .map(|b| {
            b.statements
                .iter()
                .map(|s| statement_label(&s.kind))
                .collect()
        })
        .collect();
    assert_eq!(
        requests,
        [
            vec!["SELECT AND CONSUME", "UPDATE"],
            vec!["SELECT AND CONSUME"],
            vec!["BT", "SELECT", "ET"],
            vec!["INSERT", "INSERT"],
            vec!["SELECT"],
            vec![";"],
            vec!["SELECT"],
        ]
    );
    let spans: Vec<&str> = script
        .batches
        .iter()
        .map(|b| &src[b.span.clone()])
        .collect();
    assert_eq!(
        spans[0],
        "SELECT AND CONSUME TOP 1 * FROM q; UPDATE q SET c = 1;"
    );
    assert_eq!(spans[1], "SELECT AND CONSUME TOP 1 *\n  FROM q;");
    assert_eq!(spans[6], "SELECT 2");
    // Printed: one line per request.
    expect![[r#"
        SELECT AND CONSUME TOP 1 * FROM q; UPDATE q SET c = 1;
        SELECT AND CONSUME TOP 1 * FROM q;
        BT; SELECT 1; ET;
        INSERT INTO q VALUES (CURRENT_TIMESTAMP, 1); INSERT INTO q VALUES (CURRENT_TIMESTAMP, 2);
        SELECT 1;
        ;
        SELECT 2;"#]]
    .assert_eq(&script.to_sql(Dialect::Teradata));
    // Statements must be separated by ';', on one line or several.
    check_td_error(
        "SELECT a FROM q\nSELECT b FROM r;",
        expect!["2:1: found 'SELECT', expected one of: AS, an alias, JOIN, INNER, LEFT, RIGHT, FULL, CROSS, ',', WHERE, GROUP, HAVING, UNION, EXCEPT, INTERSECT, MINUS, ORDER, ';' [SELECT]"],
    );
}

/// T10: a request with a consume cannot also DELETE, UPDATE or MERGE the same queue
/// table; the AST says which statements those are, the engine raises the error.
#[test]
fn teradata_consume_conflicts_in_a_request() {
    let conflict = |src: &str| -> Vec<Option<(String, String)>> {
        td_parse(src)
            .batches
            .iter()
            .map(|b| {
                b.consume_conflict().map(|(c, o)| {
                    (
                        src[c.span.clone()].to_string(),
                        src[o.span.clone()].to_string(),
                    )
                })
            })
            .collect()
    };
    assert_eq!(
        conflict(
            "SELECT AND CONSUME TOP 1 * FROM q; UPDATE Q SET a = 1;\n\
             SELECT AND CONSUME TOP 1 * FROM q;\nDELETE FROM q;\n\
             LOCKING ROW FOR WRITE INSERT INTO t SELECT AND CONSUME TOP 1 * FROM q; DEL x FROM q AS x WHERE x.a = 1;\n\
             MERGE INTO q USING s ON q.a = s.a WHEN MATCHED THEN DELETE; SEL AND CONSUME TOP 1 * FROM q;\n\
             SELECT AND CONSUME TOP 1 * FROM q; DELETE FROM r; UPDATE t SET a = 1; INSERT INTO q VALUES (CURRENT_TIMESTAMP, 1);"
        ),
        [
            Some((
                "SELECT AND CONSUME TOP 1 * FROM q".into(),
                "UPDATE Q SET a = 1".into()
            )),
            None,
            None,
            Some((
                "LOCKING ROW FOR WRITE INSERT INTO t SELECT AND CONSUME TOP 1 * FROM q".into(),
                "DEL x FROM q AS x WHERE x.a = 1".into()
            )),
            Some((
                "SEL AND CONSUME TOP 1 * FROM q".into(),
                "MERGE INTO q USING s ON q.a = s.a WHEN MATCHED THEN DELETE".into()
            )),
            None,
        ]
    );
    let two = td_parse("SELECT AND CONSUME TOP 1 * FROM q; SELECT AND CONSUME TOP 1 * FROM q;");
    assert_eq!(two.batches[0].consume_count(), 2);
    let StmtKind::Update(u) = td_first_stmt("UPD q AS x FROM r SET a = r.a WHERE x.b = r.b;")
    else {
        panic!()
    };
    let kind = StmtKind::Update(u);
    assert_eq!(kind.delete_update_merge_table().unwrap().to_string(), "q");
}

#[test]
fn teradata_queue_table_ast() {
    let StmtKind::CreateTable(t) = td_first_stmt(
        "CREATE SET TABLE qtbl_1, QUEUE, FALLBACK, NO BEFORE JOURNAL, NO AFTER JOURNAL (col_1 TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), col_2 INTEGER, col_3 INTEGER) PRIMARY INDEX (col_2, col_3);",
    ) else {
        panic!()
    };
    assert!(t.queue);
    assert_eq!(t.set_table, Some(true));
    assert_eq!(
        t.options,
        [
            TableOption::Fallback(true),
            TableOption::BeforeJournal(false),
            TableOption::AfterJournal(false)
        ]
    );
    let pi = t.primary_index.unwrap();
    assert!(!pi.unique);
    let pi_cols: Vec<&str> = pi.columns.iter().map(|c| c.value.as_str()).collect();
    assert_eq!(pi_cols, ["col_2", "col_3"]);
    let qits = &t.columns[0];
    assert_eq!(qits.ty, DataType::DateTime2(6));
    assert_eq!(qits.nullable, Some(false));
    assert_eq!(
        qits.default.as_ref().unwrap().to_sql(Dialect::Teradata),
        "CURRENT_TIMESTAMP(6)"
    );
    // Defaults: no SET/MULTISET said, not a queue, no primary index.
    let StmtKind::CreateTable(t) = td_first_stmt("CT t (a INTEGER)") else {
        panic!()
    };
    assert_eq!(
        (t.set_table, t.queue, t.options.len(), t.primary_index),
        (None, false, 0, None)
    );
    let StmtKind::CreateTable(t) =
        td_first_stmt("CREATE MULTISET TABLE t (a INTEGER) UNIQUE PRIMARY INDEX ix (a)")
    else {
        panic!()
    };
    assert_eq!(t.set_table, Some(false));
    let pi = t.primary_index.unwrap();
    assert!(pi.unique && pi.name.unwrap().value == "ix");
}

#[test]
fn teradata_consume_ast() {
    let StmtKind::SelectAndConsume(c) = td_first_stmt(
        "SELECT AND CONSUME TOP 1 col_1_qits, USER, CURRENT_TIMESTAMP FROM db.myqueue AS q",
    ) else {
        panic!()
    };
    assert_eq!(c.queue.to_string(), "db.myqueue");
    assert_eq!(c.alias.unwrap().value, "q");
    let items: Vec<String> = c.items.iter().map(|i| i.to_string()).collect();
    assert_eq!(items, ["col_1_qits", "USER", "CURRENT_TIMESTAMP"]);
    let StmtKind::Insert(i) =
        td_first_stmt("INSERT INTO tgt (a, b) SELECT AND CONSUME TOP 1 * FROM q")
    else {
        panic!()
    };
    assert_eq!(i.target.to_string(), "tgt");
    assert_eq!(i.columns.len(), 2);
    let InsertSource::SelectAndConsume(c) = &i.source else {
        panic!()
    };
    assert_eq!(c.queue.to_string(), "q");
    assert!(matches!(c.items[..], [SelectItem::Wildcard { .. }]));
}

#[test]
fn teradata_locking_ast() {
    let StmtKind::Locking { locks, stmt } = td_first_stmt(
        "LOCKING TABLE q FOR ACCESS LOCK t IN EXCL MODE NOWAIT LOCKING ROW SHARE SEL * FROM q",
    ) else {
        panic!()
    };
    let summary: Vec<String> = locks
        .iter()
        .map(|l| {
            let object = match &l.object {
                LockingObject::Table(t) => format!("table {t}"),
                LockingObject::Row => "row".to_string(),
            };
            format!("{object} {:?} nowait={}", l.severity, l.nowait)
        })
        .collect();
    assert_eq!(
        summary,
        [
            "table q Access nowait=false",
            "table t Exclusive nowait=true",
            "row Read nowait=false"
        ]
    );
    assert!(matches!(stmt.unwrap().kind, StmtKind::Select(_)));
    // A LOCKING request without a statement only takes the lock.
    let StmtKind::Locking { locks, stmt } = td_first_stmt("LOCKING TABLE q FOR WRITE;") else {
        panic!()
    };
    assert!(stmt.is_none() && locks[0].severity == LockSeverity::Write);
    assert!(
        LockSeverity::Access < LockSeverity::Read && LockSeverity::Write < LockSeverity::Exclusive
    );
}

#[test]
fn teradata_transactions_keep_their_spelling() {
    let src = "BT; ET; BEGIN TRANSACTION; END TRANSACTION; COMMIT; COMMIT WORK; ROLLBACK; ROLLBACK WORK; ABORT;";
    let kinds: Vec<TeradataTxn> = td_parse(src).batches[0]
        .statements
        .iter()
        .map(|s| match s.kind {
            StmtKind::TeradataTxn(t) => t,
            _ => panic!(),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            TeradataTxn::Begin { abbreviated: true },
            TeradataTxn::End { abbreviated: true },
            TeradataTxn::Begin { abbreviated: false },
            TeradataTxn::End { abbreviated: false },
            TeradataTxn::Commit { work: false },
            TeradataTxn::Commit { work: true },
            TeradataTxn::Rollback { work: false },
            TeradataTxn::Rollback { work: true },
            TeradataTxn::Abort,
        ]
    );
    expect![[r#"BT; ET; BEGIN TRANSACTION; END TRANSACTION; COMMIT; COMMIT WORK; ROLLBACK; ROLLBACK WORK; ABORT;"#]]
        .assert_eq(&td_parse(src).to_sql(Dialect::Teradata));
}

#[test]
fn teradata_dml_forms() {
    let src = "\
INSERT INTO q (col) VALUES (1);
INSERT INTO q VALUES (CURRENT_TIMESTAMP(6), 1);
INS q (CURRENT_TIMESTAMP, 2, 'x');
INSERT q DEFAULT VALUES;
INSERT INTO t (a, b) SEL a, b FROM r WHERE a IN (SEL a FROM s);
DELETE ALL FROM t;
DELETE FROM t ALL;
DEL t;
DELETE FROM q WHERE qits < CURRENT_TIMESTAMP;
DELETE FROM q AS x WHERE x.a = 1;
DELETE x FROM q AS x, r WHERE x.a = r.a;
UPDATE q SET a = a + 1, b = 'y' WHERE c MOD 2 = 1;
UPD q AS x SET a = 2 WHERE x.b = 3;
UPDATE q FROM r SET a = r.a WHERE q.b = r.b;
MERGE INTO q AS t USING (SEL 1 AS id, 'v' AS v) AS s ON t.id = s.id WHEN MATCHED THEN UPD SET v = s.v WHEN NOT MATCHED THEN INS (id, v) VALUES (s.id, s.v);
MERGE q USING r ON q.a = r.a WHEN NOT MATCHED THEN INSERT VALUES (r.a) WHEN MATCHED THEN DELETE;
SELECT TOP 10 PERCENT WITH TIES a, DATE '2024-01-31' AS d, CURRENT_DATE FROM q MINUS SELECT a, d, e FROM r ORDER BY 1;
WITH c (x) AS (SEL a FROM q) SEL x FROM c;
DROP TABLE q;
";
    expect![[r#"
        INSERT INTO q (col) VALUES (1);
        INSERT INTO q VALUES (CURRENT_TIMESTAMP(6), 1);
        INSERT INTO q VALUES (CURRENT_TIMESTAMP, 2, 'x');
        INSERT INTO q DEFAULT VALUES;
        INSERT INTO t (a, b) SELECT a, b FROM r WHERE a IN (SELECT a FROM s);
        DELETE FROM t;
        DELETE FROM t;
        DELETE FROM t;
        DELETE FROM q WHERE qits < CURRENT_TIMESTAMP;
        DELETE x FROM q AS x WHERE x.a = 1;
        DELETE x FROM q AS x, r WHERE x.a = r.a;
        UPDATE q SET a = a + 1, b = 'y' WHERE c MOD 2 = 1;
        UPDATE x FROM q AS x SET a = 2 WHERE x.b = 3;
        UPDATE q FROM r SET a = r.a WHERE q.b = r.b;
        MERGE INTO q AS t USING (SELECT 1 AS id, 'v' AS v) AS s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.v);
        MERGE INTO q USING r ON q.a = r.a WHEN NOT MATCHED THEN INSERT VALUES (r.a) WHEN MATCHED THEN DELETE;
        SELECT TOP 10 PERCENT WITH TIES a, CAST('2024-01-31' AS DATE) AS d, CURRENT_DATE FROM q EXCEPT SELECT a, d, e FROM r ORDER BY 1;
        WITH c (x) AS (SELECT a FROM q) SELECT x FROM c;
        DROP TABLE q;"#]].assert_eq(&td_parse(src).to_sql(Dialect::Teradata));
    // The alias of DELETE/UPDATE becomes the target, with the table in FROM (T-SQL's form).
    let StmtKind::Delete(d) = td_first_stmt("DELETE FROM q AS x WHERE x.a = 1") else {
        panic!()
    };
    assert_eq!(d.target.to_string(), "x");
    assert_eq!(d.from[0].factor.to_string(), "q AS x");
    // Without VALUES, a parenthesised list is the row; with it, the column list.
    let StmtKind::Insert(i) = td_first_stmt("INS q (a, b)") else {
        panic!()
    };
    assert!(
        i.columns.is_empty()
            && matches!(&i.source, InsertSource::Values(rows) if rows[0].len() == 2)
    );
    let StmtKind::Merge(m) =
        td_first_stmt("MERGE INTO q USING r ON q.a = r.a WHEN MATCHED THEN UPDATE SET b = r.b")
    else {
        panic!()
    };
    assert_eq!(m.target.to_string(), "q");
    assert!(m.clauses[0].matched && matches!(m.clauses[0].action, MergeAction::Update(_)));
}

#[test]
fn teradata_data_types() {
    let StmtKind::CreateTable(t) = td_first_stmt(
        "CREATE TABLE t (a BYTEINT, b SMALLINT, c INTEGER, d INT, e BIGINT, f DECIMAL(10, 2), \
         g DECIMAL, h NUMERIC(5), i FLOAT, j REAL, k DOUBLE PRECISION, l CHAR(3), m CHAR, \
         n VARCHAR(64000), o CHARACTER VARYING(5), p DATE, q TIME, r TIME(0), s TIMESTAMP, \
         u TIMESTAMP(0), v VARCHAR(10) CHARACTER SET UNICODE NOT CASESPECIFIC NOT NULL)",
    ) else {
        panic!()
    };
    let types: Vec<String> = t.columns.iter().map(|c| format!("{:?}", c.ty)).collect();
    expect!["ByteInt SmallInt Int Int BigInt Decimal { precision: 10, scale: 2 } Decimal { precision: 5, scale: 0 } Decimal { precision: 5, scale: 0 } Float Float Float Char(3) Char(1) VarChar(N(64000)) VarChar(N(5)) Date Time(6) Time(0) DateTime2(6) DateTime2(0) VarChar(N(10))"].assert_eq(&types.join(" "));
    assert_eq!(t.columns.last().unwrap().nullable, Some(false));
    // T-SQL prints BYTEINT in its own style; engines' messages use Display.
    assert_eq!(DataType::ByteInt.to_string(), "byteint");
}

#[test]
fn teradata_expressions() {
    let td = |src: &str| {
        parse_expr(src, Dialect::Teradata)
            .unwrap_or_else(|e| panic!("{}", e.render(src)))
            .to_sql(Dialect::Teradata)
    };
    assert_eq!(td("CURRENT_TIMESTAMP(6)"), "CURRENT_TIMESTAMP(6)");
    assert_eq!(td("current_timestamp"), "CURRENT_TIMESTAMP");
    assert_eq!(td("USER"), "USER");
    assert_eq!(
        td("a MOD 2 = 0 AND b % 3 = 1"),
        "a MOD 2 = 0 AND b MOD 3 = 1"
    );
    assert_eq!(
        td("CAST(a AS VARCHAR(10)) || 'x'".split(" ||").next().unwrap()),
        "CAST(a AS VARCHAR(10))"
    );
    assert_eq!(
        td("TIMESTAMP '2024-01-01 00:00:00.000001'"),
        "CAST('2024-01-01 00:00:00.000001' AS TIMESTAMP(6))"
    );
    assert_eq!(td("\"rank\" + \"Queue\""), "\"rank\" + \"Queue\"");
    // The same tree in T-SQL's canonical form.
    let e = parse_expr("a MOD 2", Dialect::Teradata).unwrap();
    assert_eq!(e.to_string(), "a % 2");
    let e = parse_expr("x = @x", Dialect::Teradata).unwrap_err();
    assert_eq!(
        e.render("x = @x"),
        "1:5: variables (@x): T-SQL syntax; this lesson's dialect is Teradata"
    );
}

#[test]
fn teradata_consume_rules_are_errors() {
    check_td_error(
        "SELECT AND CONSUME TOP 2 * FROM myqueue;",
        expect!["1:20: SELECT AND CONSUME allows only TOP 1 [TOP 2]"],
    );
    check_td_error(
        "SELECT AND CONSUME TOP 1 PERCENT * FROM myqueue;",
        expect!["1:20: SELECT AND CONSUME allows only TOP 1, without PERCENT or WITH TIES [TOP 1 PERCENT]"],
    );
    // No select list starts with AND: the word after it is the mistake.
    check_td_error(
        "SELECT AND AND CONSUME TOP 1 * FROM myqueue;",
        expect!["1:12: found 'AND', expected CONSUME [AND]"],
    );
    check_td_error(
        "SELECT AND CONSUME * FROM myqueue;",
        expect!["1:20: SELECT AND CONSUME requires TOP 1 [*]"],
    );
    check_td_error(
        "SELECT AND CONSUME TOP 1 *\nFROM myqueue\nWHERE qsn = 1;",
        expect!["3:1: SELECT AND CONSUME cannot have a WHERE clause [WHERE]"],
    );
    check_td_error(
        "SELECT AND CONSUME TOP 1 * FROM myqueue ORDER BY qits;",
        expect!["1:41: SELECT AND CONSUME cannot have an ORDER BY clause: it always takes the row with the oldest QITS [ORDER]"],
    );
    check_td_error(
        "SELECT AND CONSUME TOP 1 * FROM myqueue GROUP BY qsn;",
        expect!["1:41: SELECT AND CONSUME cannot have a GROUP BY clause [GROUP]"],
    );
    check_td_error(
        "SELECT AND CONSUME TOP 1 * FROM myqueue q JOIN t ON t.a = q.a;",
        expect!["1:43: SELECT AND CONSUME cannot join tables [JOIN]"],
    );
    check_td_error(
        "SELECT AND CONSUME TOP 1 * FROM myqueue, t;",
        expect!["1:40: SELECT AND CONSUME cannot join tables [,]"],
    );
    check_td_error(
        "SELECT AND CONSUME TOP 1 MAX(qsn) FROM myqueue;",
        expect!["1:26: SELECT AND CONSUME cannot use aggregate or ordered analytic functions [MAX(qsn)]"],
    );
    check_td_error(
        "SELECT AND CONSUME TOP 1 * FROM myqueue UNION SELECT * FROM t;",
        expect!["1:41: SELECT AND CONSUME cannot be used with a set operator [UNION]"],
    );
    check_td_error(
        "SELECT * FROM t WHERE a IN (SELECT AND CONSUME TOP 1 a FROM myqueue);",
        expect!["1:29: SELECT AND CONSUME cannot be used in a subquery or with a set operator [SELECT AND CONSUME]"],
    );
    check_td_error(
        "SELECT AND CONSUME TOP 1 * FROM (SEL * FROM myqueue) AS d;",
        expect!["1:33: SELECT AND CONSUME reads from one queue table, not from a derived table [(SEL * FROM myqueue) AS d]"],
    );
}

#[test]
fn teradata_queue_table_rules_are_errors() {
    check_td_error(
        "CREATE TABLE q, QUEUE (a INTEGER, qits TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6));",
        expect!["1:24: a queue table's first column must be its QITS column: TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) [a INTEGER]"],
    );
    check_td_error(
        "CREATE TABLE q, QUEUE (qits TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), a INTEGER);",
        expect!["1:24: a queue table's first column must be its QITS column: TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) [qits TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)]"],
    );
    check_td_error(
        "CREATE TABLE q, QUEUE (qits TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, a INTEGER)\nUNIQUE PRIMARY INDEX (qits);",
        expect!["2:1: the QITS column of a queue table cannot be UNIQUE, a PRIMARY KEY or a unique primary index [UNIQUE PRIMARY INDEX (qits)]"],
    );
    check_td_error(
        "CREATE TABLE q, QUEUE, QUEUE (qits TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6));",
        expect!["1:24: QUEUE given twice for the same table [QUEUE]"],
    );
    check_td_error(
        "CREATE TABLE q (a INTEGER) PRIMARY INDEX (a) PRIMARY INDEX (a);",
        expect!["1:46: a table has only one primary index [PRIMARY INDEX (a)]"],
    );
}

#[test]
fn tsql_syntax_is_rejected_in_teradata() {
    check_td_error(
        "SELECT TOP 1 * FROM myqueue WITH (READPAST);",
        expect!["1:29: table hints: T-SQL syntax; this lesson's dialect is Teradata [WITH (]"],
    );
    check_td_error(
        "SELECT * FROM myqueue (NOLOCK);",
        expect!["1:23: table hints: T-SQL syntax; this lesson's dialect is Teradata [(]"],
    );
    check_td_error(
        "SELECT TOP (1) * FROM myqueue;",
        expect!["1:12: TOP (n): T-SQL syntax; this lesson's dialect is Teradata [(]"],
    );
    check_td_error(
        "BEGIN TRY\n    SELECT 1;\nEND TRY",
        expect!["1:1: BEGIN TRY: T-SQL syntax; this lesson's dialect is Teradata [BEGIN TRY]"],
    );
    check_td_error(
        "SELECT * FROM myqueue WHERE qsn = @x;",
        expect!["1:35: variables (@x): T-SQL syntax; this lesson's dialect is Teradata [@x]"],
    );
    check_td_error(
        "SELECT @@ROWCOUNT;",
        expect!["1:8: global variables (@@ROWCOUNT): T-SQL syntax; this lesson's dialect is Teradata [@@ROWCOUNT]"],
    );
    check_td_error(
        "SELECT 1;\nGO\nSELECT 2;",
        expect!["2:1: GO: T-SQL syntax; this lesson's dialect is Teradata [GO]"],
    );
    check_td_error(
        "SELECT 1\nGO",
        expect!["2:1: GO: T-SQL syntax; this lesson's dialect is Teradata [GO]"],
    );
    check_td_error(
        "DECLARE @id int;",
        expect!["1:1: DECLARE: T-SQL syntax; this lesson's dialect is Teradata [DECLARE]"],
    );
    check_td_error(
        "SET NOCOUNT ON;",
        expect!["1:1: SET: T-SQL syntax; this lesson's dialect is Teradata [SET]"],
    );
    check_td_error(
        "BEGIN TRAN;",
        expect!["1:1: BEGIN TRAN: T-SQL syntax; this lesson's dialect is Teradata [BEGIN TRAN]"],
    );
    check_td_error(
        "COMMIT TRANSACTION;",
        expect!["1:1: COMMIT TRANSACTION: T-SQL syntax; this lesson's dialect is Teradata [COMMIT TRANSACTION]"],
    );
    check_td_error(
        "BEGIN\n  SELECT 1;\nEND;",
        expect![
            "1:1: BEGIN ... END blocks: T-SQL syntax; this lesson's dialect is Teradata [BEGIN]"
        ],
    );
    check_td_error(
        "WAITFOR DELAY '00:00:01';",
        expect!["1:1: WAITFOR: T-SQL syntax; this lesson's dialect is Teradata [WAITFOR]"],
    );
    check_td_error(
        "DELETE FROM q OUTPUT deleted.*;",
        expect!["1:15: OUTPUT: T-SQL syntax; this lesson's dialect is Teradata [OUTPUT]"],
    );
    check_td_error(
        "UPDATE q SET a = 1 FROM q WHERE b = 2;",
        expect!["1:20: FROM after SET: T-SQL syntax; this lesson's dialect is Teradata [FROM]"],
    );
    check_td_error(
        "UPDATE q SET a += 1;",
        expect!["1:16: compound assignment: T-SQL syntax; this lesson's dialect is Teradata [+=]"],
    );
    check_td_error(
        "SELECT total = a + b FROM q;",
        expect!["1:8: alias = expression in a select list: T-SQL syntax; this lesson's dialect is Teradata [total =]"],
    );
    check_td_error(
        "SELECT * FROM q CROSS APPLY r;",
        expect!["1:17: CROSS APPLY: T-SQL syntax; this lesson's dialect is Teradata [CROSS APPLY]"],
    );
    check_td_error(
        "SELECT [id] FROM q;",
        expect![
            "1:8: [bracketed] identifiers: T-SQL syntax; this lesson's dialect is Teradata [[id]]"
        ],
    );
    check_td_error(
        "SELECT CONVERT(INTEGER, a) FROM q;",
        expect!["1:8: CONVERT: T-SQL syntax; this lesson's dialect is Teradata [CONVERT]"],
    );
    check_td_error(
        "CREATE TABLE t (id INTEGER IDENTITY(1, 1));",
        expect!["1:28: IDENTITY: T-SQL syntax; this lesson's dialect is Teradata [IDENTITY]"],
    );
    check_td_error(
        "CREATE TABLE t (at datetime2(3));",
        expect!["1:20: data type datetime2: T-SQL syntax; this lesson's dialect is Teradata [datetime2]"],
    );
    check_td_error(
        "INSERT INTO q (a) VALUES (1), (2);",
        expect![
            "1:29: a Teradata INSERT ... VALUES inserts one row: write one INSERT per row [, (]"
        ],
    );
    check_td_error(
        "SELECT a & 1 FROM q;",
        expect!["1:10: bitwise operator '&': T-SQL syntax; this lesson's dialect is Teradata [&]"],
    );
}

#[test]
fn teradata_syntax_errors_list_what_was_expected() {
    check_td_error(
        "LOCKING myqueue FOR BOGUS SELECT 1;",
        expect!["1:21: found 'BOGUS', expected one of: ACCESS, READ, SHARE, WRITE, EXCLUSIVE, EXCL [BOGUS]"],
    );
    check_td_error(
        "LOCKING myqueue FOR ACCESS BT;",
        expect!["1:28: found 'BT', expected one of: MODE, NOWAIT, LOCKING, LOCK, ';', SELECT, INSERT, UPDATE, DELETE, MERGE [BT]"],
    );
    check_td_error(
        "END TRY;",
        expect!["1:5: found 'TRY', expected TRANSACTION [TRY]"],
    );
    check_td_error(
        "SELECT rank FROM q;",
        expect![[
            r#"1:8: found 'rank' (a reserved word in Teradata; as a name write "rank"), expected one of: DISTINCT, ALL, TOP, '*', an expression [rank]"#
        ]],
    );
    check_td_error(
        "CREATE TABLE q (qits TIMESTAMP(6) NOT NULL, date DATE);",
        expect![[
            r#"1:45: found 'date' (a reserved word in Teradata; as a name write "date"), expected one of: CONSTRAINT, PRIMARY, UNIQUE, CHECK, an identifier [date]"#
        ]],
    );
    check_td_error(
        "CREATE TABLE q (a INTEGER) x;",
        expect!["1:28: found 'x', expected one of: UNIQUE, PRIMARY, ';' [x]"],
    );
    check_td_error(
        "CREATE VOLATILE TABLE q (a INTEGER);",
        expect!["1:1: not simulated: CREATE VOLATILE [CREATE VOLATILE]"],
    );
    check_td_error(
        "CREATE q (a INTEGER);",
        expect!["1:8: found 'q', expected one of: SET, MULTISET, TABLE [q]"],
    );
    check_td_error(
        "CREATE TABLE q (a strnig);",
        expect!["1:19: unknown data type 'strnig' [strnig]"],
    );
    check_td_error(
        "CREATE TABLE q (a VARCHAR);",
        expect!["1:26: found ')', expected '(' [)]"],
    );
    check_td_error(
        "CREATE TABLE q (a TIMESTAMP(7));",
        expect!["1:29: 7 is out of range for TIMESTAMP: allowed 0 to 6 [7]"],
    );
    check_td_error(
        "MERGE INTO q USING r ON q.a = r.a;",
        expect!["1:34: found ';', expected one of: an operator, WHEN [;]"],
    );
    check_td_error(
        "MERGE INTO q USING r ON q.a = r.a WHEN MATCHED THEN INSERT VALUES (1);",
        expect!["1:53: found 'INSERT', expected one of: UPDATE, DELETE [INSERT]"],
    );
    check_td_error(
        "MERGE INTO q USING r ON q.a = r.a WHEN MATCHED THEN DELETE WHEN MATCHED THEN DELETE;",
        expect!["1:60: a MERGE has at most one WHEN MATCHED clause [WHEN MATCHED THEN DELETE]"],
    );
    check_td_error(
        "SELECT 'open;\nSELECT 1;",
        expect!["1:8: unterminated string literal [']"],
    );
    check_td_error(
        "SELECT 1 /* never",
        expect!["1:10: unterminated comment [/]"],
    );
}

#[test]
fn teradata_not_simulated_constructs_are_named() {
    check_td_error(
        ".LOGON tdpid/dbc,dbc\nSELECT 1;",
        expect!["1:1: not simulated: BTEQ commands [.LOGON tdpid/dbc,dbc]"],
    );
    check_td_error(
        "SELECT a || b FROM q;",
        expect!["1:10: not simulated: || (string concatenation) [||]"],
    );
    check_td_error(
        "SELECT * FROM q QUALIFY ROW_NUMBER() OVER (ORDER BY a) = 1;",
        expect!["1:17: not simulated: QUALIFY [QUALIFY]"],
    );
    check_td_error(
        "SELECT * FROM q SAMPLE 10;",
        expect!["1:17: not simulated: SAMPLE [SAMPLE]"],
    );
    check_td_error(
        "LOCKING ROW FOR READ OVERRIDE SELECT * FROM q;",
        expect!["1:17: not simulated: READ OVERRIDE [READ OVERRIDE]"],
    );
    check_td_error(
        "LOCKING VIEW v FOR ACCESS SELECT * FROM v;",
        expect!["1:1: not simulated: LOCKING VIEW [LOCKING VIEW]"],
    );
    check_td_error(
        "CREATE TABLE q, CHECKSUM = ON (a INTEGER);",
        expect!["1:17: not simulated: table option CHECKSUM [CHECKSUM]"],
    );
    check_td_error(
        "CREATE TABLE q (a INTEGER) PRIMARY INDEX (a), INDEX (b);",
        expect!["1:47: not simulated: secondary indexes [INDEX]"],
    );
    check_td_error(
        "CREATE TABLE q (a INTEGER FORMAT '999');",
        expect!["1:27: not simulated: column attribute FORMAT [FORMAT]"],
    );
    check_td_error(
        "CREATE TABLE q (a TIMESTAMP(6) WITH TIME ZONE);",
        expect!["1:32: not simulated: WITH TIME ZONE [WITH TIME]"],
    );
    check_td_error(
        "UPDATE q SET a = 1 WHERE b = 2 ELSE INSERT INTO q VALUES (2);",
        expect!["1:32: not simulated: atomic upsert (UPDATE ... ELSE INSERT) [ELSE INSERT]"],
    );
    check_td_error(
        "ABORT 'no rows' WHERE 1 = 1;",
        expect!["1:7: not simulated: ABORT with a message or a condition ['no rows']"],
    );
    check_td_error(
        "EXEC my_macro;",
        expect!["1:1: not simulated: macros (EXEC) [EXEC]"],
    );
    check_td_error("HELP TABLE q;", expect!["1:1: not simulated: HELP [HELP]"]);
    check_td_error(
        "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ UNCOMMITTED;",
        expect!["1:1: not simulated: SET SESSION [SET SESSION]"],
    );
    check_td_error(
        "SELECT CURRENT_TIMESTAMP + INTERVAL '1' MONTH;",
        expect!["1:28: not simulated: INTERVAL MONTH [INTERVAL '1' MONTH]"],
    );
}

#[test]
fn teradata_interval_offsets() {
    let src = "INSERT INTO q VALUES (CURRENT_TIMESTAMP + INTERVAL '0.001' SECOND, 1); INSERT INTO q VALUES (CURRENT_TIMESTAMP + INTERVAL '2' minute, 2);";
    expect![[r#"
        == request 1
        -- 1:1 INSERT
        INSERT INTO q VALUES (CURRENT_TIMESTAMP + INTERVAL '0.001' SECOND, 1)
        -- 1:72 INSERT
        INSERT INTO q VALUES (CURRENT_TIMESTAMP + INTERVAL '2' MINUTE, 2)
    "#]]
    .assert_eq(&td_summary(src));
    let printed = td_parse(src).to_sql(Dialect::Teradata);
    assert_eq!(td_parse(&printed).to_sql(Dialect::Teradata), printed);
}

#[test]
fn teradata_nesting_is_bounded() {
    let deep_parens = format!("SELECT {}1{};", "(".repeat(10_000), ")".repeat(10_000));
    let deep_subquery = format!("SEL {}1{};", "(SEL ".repeat(10_000), ")".repeat(10_000));
    let deep_locking = format!(
        "{}SELECT {}1{};",
        "LOCKING ROW FOR ACCESS ".repeat(10_000),
        "(".repeat(10_000),
        ")".repeat(10_000)
    );
    for src in [deep_parens, deep_subquery, deep_locking] {
        let e = parse_script(&src, Dialect::Teradata).unwrap_err();
        assert!(e.message.ends_with("nested too deeply"), "{}", e.message);
    }
    on_wasm_sized_stack(|| {
        let src = format!(
            "LOCKING ROW FOR WRITE SEL {}1{};",
            "(SEL ".repeat(30),
            ")".repeat(30)
        );
        parse_script(&src, Dialect::Teradata).unwrap();
    });
}

/// T-SQL has no boolean values: a search condition must be a predicate, and a value in
/// its place is Msg 4145 when the batch compiles, near the token after the value (as
/// SQL Server words it: `near ';'`, `near 'THEN'`); PostgreSQL takes boolean columns.
#[test]
fn a_value_where_tsql_wants_a_condition_is_msg_4145() {
    let cases = [
        "SELECT id FROM t WHERE active;",
        "SELECT id FROM t WHERE 1 ORDER BY id",
        "SELECT id FROM t WHERE a = 1 AND b OR c = 2",
        "SELECT id FROM t WHERE NOT (id)",
        "DECLARE @v int; SELECT CASE WHEN @v THEN 1 ELSE 0 END",
        "IF 1 PRINT 'x'",
        "DECLARE @n int; WHILE @n BEGIN SET @n -= 1 END",
        "SELECT id FROM t JOIN u ON u.id WHERE 1 = 1",
        "SELECT 1 WHERE 1",
        "SELECT k, COUNT(*) FROM t GROUP BY k HAVING COUNT(*);",
        "CREATE TABLE t (id int CHECK (id))",
        "CREATE INDEX ix ON t (id) WHERE active",
        "DECLARE @done bit; SELECT IIF(@done, 'yes', 'no')",
    ];
    let out: Vec<String> = cases.iter().map(|c| error(c)).collect();
    expect![[r#"
        1:30: Msg 4145: An expression of non-boolean type specified in a context where a condition is expected, near ';'.
        1:26: Msg 4145: An expression of non-boolean type specified in a context where a condition is expected, near 'ORDER'.
        1:36: Msg 4145: An expression of non-boolean type specified in a context where a condition is expected, near 'OR'.
        1:31: Msg 4145: An expression of non-boolean type specified in a context where a condition is expected, near ')'.
        1:37: Msg 4145: An expression of non-boolean type specified in a context where a condition is expected, near 'THEN'.
        1:6: Msg 4145: An expression of non-boolean type specified in a context where a condition is expected, near 'PRINT'.
        1:26: Msg 4145: An expression of non-boolean type specified in a context where a condition is expected, near 'BEGIN'.
        1:33: Msg 4145: An expression of non-boolean type specified in a context where a condition is expected, near 'WHERE'.
        1:16: Msg 4145: An expression of non-boolean type specified in a context where a condition is expected, near '1'.
        1:53: Msg 4145: An expression of non-boolean type specified in a context where a condition is expected, near ';'.
        1:33: Msg 4145: An expression of non-boolean type specified in a context where a condition is expected, near ')'.
        1:33: Msg 4145: An expression of non-boolean type specified in a context where a condition is expected, near 'active'.
        1:36: Msg 4145: An expression of non-boolean type specified in a context where a condition is expected, near ','."#]].assert_eq(&out.join("\n"));
    // Predicates of every kind pass, and a simple CASE compares values.
    let fine = "SELECT id FROM t WHERE a = 1 AND NOT (b <> 2 OR c IS NULL) AND d IN (1, 2) \
                AND e BETWEEN 1 AND 2 AND f LIKE 'x%' AND EXISTS (SELECT 1) \
                AND CASE g WHEN 1 THEN 1 ELSE 0 END = 1 AND IIF(h > 0, 1, 0) = 1;\nIF @@ROWCOUNT = 0 PRINT 'x';\nWHILE 1 = 1 BREAK;";
    parse_script(fine, Dialect::TSql).unwrap_or_else(|e| panic!("{}", e.render(fine)));
    let pg = "SELECT id FROM t WHERE active AND NOT done;";
    parse_script(pg, Dialect::Postgres).unwrap_or_else(|e| panic!("{}", e.render(pg)));
}

/// SQL Server resolves each variable against the DECLAREs before it in the batch's text,
/// when the batch compiles: a variable used before any declaration, or declared twice,
/// fails the whole batch (nothing in it runs), at the name. Named arguments of EXEC are
/// the procedure's parameters, not variables; `GO` starts a batch with none declared.
#[test]
fn a_variable_must_be_declared_earlier_in_the_batch() {
    let cases = [
        "PRINT 'a';\nSELECT @x;",
        "SET @n = 1;",
        "SELECT @n = COUNT(*) FROM t;",
        "UPDATE t SET @n = v, v = 1;",
        "INSERT INTO @t VALUES (1);",
        "SELECT * FROM @t;",
        "EXEC @rc = p;",
        "SET DEADLOCK_PRIORITY @p;",
        "BEGIN TRAN @name;",
        "EXEC p @a = @v;",
        "DECLARE @a int;\nDECLARE @A int;",
        "DECLARE @x int = 1;\nGO\nSELECT @x;",
        "SET @x = 1;\nDECLARE @x int;",
    ];
    let out: Vec<String> = cases.iter().map(|c| error(c)).collect();
    expect![[r#"
        2:8: Msg 137: Must declare the scalar variable "@x".
        1:5: Msg 137: Must declare the scalar variable "@n".
        1:8: Msg 137: Must declare the scalar variable "@n".
        1:14: Msg 137: Must declare the scalar variable "@n".
        1:13: Msg 1087: Must declare the table variable "@t".
        1:15: Msg 1087: Must declare the table variable "@t".
        1:6: Msg 137: Must declare the scalar variable "@rc".
        1:23: Msg 137: Must declare the scalar variable "@p".
        1:12: Msg 137: Must declare the scalar variable "@name".
        1:13: Msg 137: Must declare the scalar variable "@v".
        2:9: Msg 134: The variable name '@A' has already been declared. Variable names must be unique within a query batch or stored procedure.
        3:8: Msg 137: Must declare the scalar variable "@x".
        1:5: Msg 137: Must declare the scalar variable "@x"."#]].assert_eq(&out.join("\n"));
    let fine = "IF 1 = 0 BEGIN DECLARE @x int; END;\nSET @X = 1;\n\
                EXEC sp_getapplock @Resource = 'r', @LockMode = 'Exclusive';\n\
                DECLARE @t TABLE (id int);\nINSERT INTO @t VALUES (@x);\n\
                SELECT @x = id FROM @t;\nGO\n\
                CREATE PROCEDURE p @a int AS SELECT @a;";
    parse_script(fine, Dialect::TSql).unwrap_or_else(|e| panic!("{}", e.render(fine)));
}

/// PostgreSQL's row-locking clause in a T-SQL script is named for what it is, with the
/// table hints that do its work, not called a construct the simulator lacks.
#[test]
fn for_update_in_tsql_points_at_table_hints() {
    check_error_span(
        "SELECT TOP (1) id FROM dbo.task WHERE status = 'new' ORDER BY id FOR UPDATE SKIP LOCKED;",
        expect!["1:66: FOR UPDATE is not T-SQL outside DECLARE CURSOR: lock the rows a query reads with table hints after the table name, e.g. FROM dbo.task WITH (UPDLOCK, READPAST, ROWLOCK) for PostgreSQL's FOR UPDATE SKIP LOCKED [FOR UPDATE]"],
    );
    check_error_span(
        "SELECT id FROM t FOR no key update;",
        expect!["1:18: FOR NO KEY UPDATE is not T-SQL outside DECLARE CURSOR: lock the rows a query reads with table hints after the table name, e.g. FROM dbo.task WITH (UPDLOCK, READPAST, ROWLOCK) for PostgreSQL's FOR UPDATE SKIP LOCKED [FOR no key update]"],
    );
    check_error_span(
        "SELECT id FROM t FOR XML PATH;",
        expect!["1:18: not simulated: FOR XML/JSON/BROWSE [FOR]"],
    );
}

/// A quote left open swallows the text up to the next quote: the error after it says
/// where that string opened, rather than blaming a '(' whose ')' it swallowed.
#[test]
fn a_string_left_open_is_named_where_it_opened() {
    check_error(
        "WITH next AS (\n    SELECT TOP (1) id FROM task\n    WHERE status = 'new\n    ORDER BY id\n)\nUPDATE next SET status = 'in_progress';",
        expect!["6:27: found 'in_progress', expected one of: an operator, GROUP, HAVING, UNION, EXCEPT, INTERSECT, ORDER, ')' (the string opened 3 lines up, at column 20, runs to here: is its closing quote missing?)"],
    );
    // A string over lines that the statement expects stays quiet.
    parse_script("PRINT 'one\ntwo';", Dialect::TSql).expect("a string may span lines");
}

#[test]
fn set_identity_insert_names_its_table() {
    let src = "SET IDENTITY_INSERT dbo.task ON;\nSET IDENTITY_INSERT [task] OFF;";
    expect![[r#"
        -- 1:1 SET
        SET IDENTITY_INSERT dbo.task ON
        -- 2:1 SET
        SET IDENTITY_INSERT task OFF
    "#]]
    .assert_eq(&summary(src));
    let printed = parse(src).to_string();
    assert_eq!(parse(&printed).to_string(), printed);
    check_error_span(
        "SET IDENTITY_INSERT task;",
        expect!["1:25: found ';', expected one of: ON, OFF [;]"],
    );
}

#[test]
fn postgresql_habits_in_t_sql_are_explained() {
    let cases = [
        (
            "SELECT id FROM t LIMIT 1;",
            "LIMIT is PostgreSQL's: T-SQL writes SELECT TOP (n)",
        ),
        (
            "SELECT id FROM t ORDER BY id LIMIT 1;",
            "LIMIT is PostgreSQL's",
        ),
        (
            "INSERT INTO t (v) VALUES (1) RETURNING id;",
            "RETURNING is PostgreSQL's: T-SQL writes OUTPUT",
        ),
        (
            "SELECT '1'::int;",
            "`::` is PostgreSQL's cast: T-SQL writes CAST(x AS type)",
        ),
    ];
    for (src, hint) in cases {
        let e = parse_script(src, Dialect::TSql).unwrap_err();
        assert!(e.message.contains(hint), "{src}: {}", e.message);
    }
    // An alias that happens to be `limit` elsewhere is no PostgreSQL habit.
    let e = parse_script("SELECT id FROM t;;;(", Dialect::TSql).unwrap_err();
    assert!(!e.message.contains("PostgreSQL"), "{}", e.message);
}

#[test]
fn go_inside_a_procedure_is_named_where_it_cuts_the_batch() {
    let src = "CREATE PROCEDURE p AS\nBEGIN\n    SELECT 1;\nGO\n    SELECT 2;\nEND\n";
    let e = parse_script(src, Dialect::TSql).unwrap_err();
    assert_eq!(line_col(src, e.span.start), (4, 1), "{}", e.message);
    assert!(
        e.message.starts_with("unexpected end of the batch")
            && e.message
                .contains("(the GO on line 4 ends it: GO splits a script into batches"),
        "{}",
        e.message
    );
}
