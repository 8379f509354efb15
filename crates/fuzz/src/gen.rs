//! Inputs from a grammar: scripts of the statements lessons and learners write (queue
//! tables, claims with hints, transactions, control flow, procedures, triggers, CTEs)
//! with random expressions, plus the shapes that broke parsers and simulators before:
//! deep nesting, huge literals, NUL bytes, `GO` inside strings and comments, recursion.

use rand_chacha::ChaCha8Rng;
use rand_core::Rng;

/// A seeded source of choices.
pub struct Gen {
    rng: ChaCha8Rng,
    depth: u32,
    /// Only well-formed SQL (for simulating); loose mode also mixes in what learners get
    /// wrong and what broke parsers before.
    pub strict: bool,
}

const TABLES: &[&str] = &["task", "claim", "q", "t", "dbo.task", "#tmp", "inserted"];
const COLUMNS: &[&str] = &[
    "id", "status", "owner", "rank", "v", "taken", "qits", "name",
];
const HINTS: &[&str] = &[
    "READPAST",
    "UPDLOCK",
    "ROWLOCK",
    "HOLDLOCK",
    "NOLOCK",
    "XLOCK",
    "PAGLOCK",
    "TABLOCK",
    "SERIALIZABLE",
    "READCOMMITTED",
    "NOWAIT",
    "REPEATABLEREAD",
];
const FUNCTIONS: &[&str] = &[
    "SYSDATETIME()",
    "GETDATE()",
    "NEWID()",
    "@@ROWCOUNT",
    "@@TRANCOUNT",
    "@@ERROR",
    "@@SPID",
    "SCOPE_IDENTITY()",
    "ERROR_NUMBER()",
    "ERROR_MESSAGE()",
    "XACT_STATE()",
    "APPLOCK_MODE('public', 'r', 'Transaction')",
    "OBJECT_ID('dbo.task')",
];
const TYPES: &[&str] = &[
    "int",
    "bigint",
    "tinyint",
    "smallint",
    "bit",
    "varchar(20)",
    "nvarchar(50)",
    "varchar(max)",
    "datetime2(3)",
    "decimal(10, 2)",
    "float",
    "char(3)",
];
const DATE_PARTS: &[&str] = &[
    "day",
    "millisecond",
    "ms",
    "second",
    "minute",
    "year",
    "month",
    "hour",
];
/// Text that has broken lexers and parsers: it is spliced into generated scripts.
const ODDITIES: &[&str] = &[
    "\0",
    "GO",
    "\nGO\n",
    "'GO'",
    "/* GO */",
    "-- GO\n",
    "N'\u{10FFFF}'",
    "'it''s'",
    "[a]]b]",
    "\"quoted\"",
    "99999999999999999999999999999",
    "-9223372036854775808",
    "1e308",
    "0x",
    "/*",
    "*/",
    "'",
    "[",
    "@",
    "@@",
    "#",
    "$",
    "\r\n",
    "\t",
    "é",
    "；",
    "BEGIN",
    "END",
    ";;",
    "..",
    "1.",
    ".5",
    "N''",
    "''''",
    "((((",
    "))))",
    "CASE",
    "WITH",
    "UNION ALL",
];

impl Gen {
    pub fn new(rng: ChaCha8Rng) -> Gen {
        Gen {
            rng,
            depth: 0,
            strict: false,
        }
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.rng.next_u64() % n.max(1) as u64) as usize
    }

    pub fn chance(&mut self, percent: u32) -> bool {
        (self.rng.next_u64() % 100) < percent as u64
    }

    pub fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }

    fn number(&mut self) -> String {
        match self.below(8) {
            0 => "0".into(),
            1 => "-1".into(),
            2 => "2147483647".into(),
            3 => "-2147483648".into(),
            4 => "9223372036854775807".into(),
            5 => format!("{}.{}", self.below(1000), self.below(100)),
            _ => self.below(100).to_string(),
        }
    }

    fn string(&mut self) -> String {
        match self.below(6) {
            0 => "''".into(),
            1 => format!("'{}'", "a".repeat(self.below(9000))),
            2 => format!(
                "N'{}'",
                self.pick(&["new", "done", "in_progress", "ałć", "送信"])
            ),
            3 => format!("'%{}%'", "a%".repeat(self.below(30))),
            _ => format!(
                "'{}'",
                self.pick(&["new", "A", "00:00:00.100", "2026-01-01", "x"])
            ),
        }
    }

    /// An expression, bounded in depth (and now and then deliberately deep). In loose
    /// mode a truth value and a scalar are mixed up now and then, as a learner would.
    pub fn expr(&mut self) -> String {
        if !self.strict && self.chance(1) {
            let n = self.below(300);
            return format!("{}1{}", "(".repeat(n), ")".repeat(n));
        }
        if !self.strict && self.chance(10) {
            return self.cond();
        }
        self.depth += 1;
        let e = if self.depth > 4 {
            self.leaf()
        } else {
            match self.below(12) {
                0..=4 => self.leaf(),
                5 => format!(
                    "{} {} {}",
                    self.expr(),
                    self.pick(&["+", "-", "*", "/", "%", "&", "|", "^"]),
                    self.expr()
                ),
                6 => format!(
                    "CASE WHEN {} THEN {} ELSE {} END",
                    self.cond(),
                    self.expr(),
                    self.expr()
                ),
                7 => format!(
                    "(SELECT TOP (1) {} FROM {})",
                    self.pick(COLUMNS),
                    self.pick(&["task", "t", "claim"])
                ),
                8 => format!("CAST({} AS {})", self.expr(), self.pick(TYPES)),
                9 => format!(
                    "{}({}, {}, {})",
                    self.pick(&["DATEADD", "DATEDIFF"]),
                    self.pick(DATE_PARTS),
                    self.expr(),
                    self.pick(&["SYSDATETIME()", "@t0", "taken"])
                ),
                10 => format!(
                    "{}({}, {})",
                    self.pick(&["ISNULL", "COALESCE", "REPLICATE", "LEFT"]),
                    self.expr(),
                    self.expr()
                ),
                _ => format!(
                    "{}({})",
                    self.pick(&["ABS", "LEN", "UPPER", "LOWER", "LTRIM"]),
                    self.expr()
                ),
            }
        };
        self.depth -= 1;
        e
    }

    /// A truth value: comparisons, AND/OR/NOT, EXISTS, IN, LIKE, IS NULL.
    pub fn cond(&mut self) -> String {
        self.depth += 1;
        let c = if self.depth > 4 {
            format!("{} = {}", self.leaf(), self.leaf())
        } else {
            match self.below(9) {
                0..=2 => format!(
                    "{} {} {}",
                    self.expr(),
                    self.pick(&["=", "<>", "<", ">=", "!=", "<="]),
                    self.expr()
                ),
                3 => format!(
                    "({}) {} ({})",
                    self.cond(),
                    self.pick(&["AND", "OR"]),
                    self.cond()
                ),
                4 => format!("NOT ({})", self.cond()),
                5 => format!("EXISTS ({})", self.select()),
                6 => format!("{} IN ({}, {})", self.expr(), self.expr(), self.expr()),
                7 => format!("{} LIKE {}", self.expr(), self.string()),
                _ => format!("{} IS {}NULL", self.expr(), self.pick(&["", "NOT "])),
            }
        };
        self.depth -= 1;
        c
    }

    fn leaf(&mut self) -> String {
        match self.below(7) {
            0 => self.number(),
            1 => self.string(),
            2 => self.pick(COLUMNS).to_string(),
            3 => format!("@{}", self.pick(&["n", "id", "t0", "rc", "x"])),
            4 => self.pick(FUNCTIONS).to_string(),
            5 => "NULL".into(),
            _ => format!("-({})", self.number()),
        }
    }

    fn hints(&mut self) -> String {
        if !self.chance(50) {
            return String::new();
        }
        let n = 1 + self.below(3);
        let hs: Vec<&str> = (0..n).map(|_| self.pick(HINTS)).collect();
        format!(" WITH ({})", hs.join(", "))
    }

    pub fn select(&mut self) -> String {
        self.depth += 1;
        let mut s = String::from("SELECT ");
        if self.chance(30) {
            s += &format!("TOP ({}) ", self.below(3));
        }
        let from = self.chance(70);
        let star = from && self.chance(20);
        s += &(match self.below(10) {
            _ if star => "*".to_string(),
            0 if from => format!(
                "{}({})",
                self.pick(&["COUNT", "MAX", "MIN", "SUM"]),
                self.pick(COLUMNS)
            ),
            _ => self.expr(),
        });
        if !star && self.chance(30) {
            s += &format!(" AS {}", self.pick(COLUMNS));
        }
        if from {
            s += &format!(" FROM {}{}", self.pick(TABLES), self.hints());
            if self.chance(15) {
                s += &format!(
                    " JOIN {} AS j ON j.id = {}.id",
                    self.pick(TABLES),
                    self.pick(TABLES)
                );
            }
        }
        if self.chance(50) && self.depth < 4 {
            s += &format!(" WHERE {}", self.cond());
        }
        if self.chance(15) {
            s += &format!(" GROUP BY {}", self.pick(COLUMNS));
        }
        if self.chance(25) {
            s += &format!(
                " ORDER BY {} {}",
                self.pick(COLUMNS),
                self.pick(&["", "DESC", "ASC"])
            );
        }
        if self.chance(8) && self.depth < 3 {
            s += &format!(
                " {} {}",
                self.pick(&["UNION ALL", "UNION", "EXCEPT", "INTERSECT"]),
                self.select()
            );
        }
        self.depth -= 1;
        s
    }

    /// One statement, ending with `;`.
    pub fn statement(&mut self) -> String {
        self.depth += 1;
        let deep = self.depth > 3;
        let s = match self.below(if deep { 14 } else { 24 }) {
            0 | 1 => format!("{};", self.select()),
            2 => format!("UPDATE {}{} SET {} = {} WHERE {};", self.pick(TABLES), self.hints(), self.pick(COLUMNS), self.expr(), self.cond()),
            3 => format!("INSERT {} ({}) VALUES ({});", self.pick(TABLES), self.pick(COLUMNS), self.expr()),
            4 => format!("DELETE {}{} WHERE {};", self.pick(TABLES), self.hints(), self.cond()),
            5 => format!("DECLARE @{} {} = {};", self.pick(&["n", "id", "t0", "rc", "x"]), self.pick(TYPES), self.expr()),
            6 => format!("SET @{} {} {};", self.pick(&["n", "id", "t0", "rc", "x"]), self.pick(&["=", "+=", "-="]), self.expr()),
            7 => self.pick(&["BEGIN TRAN;", "COMMIT;", "ROLLBACK;", "BEGIN TRANSACTION;", "COMMIT TRAN;"]).into(),
            8 => format!("WAITFOR DELAY '00:00:0{}.{}';", self.below(3), self.below(1000)),
            9 => format!("SET TRANSACTION ISOLATION LEVEL {};", self.pick(&["READ COMMITTED", "SERIALIZABLE", "SNAPSHOT", "READ UNCOMMITTED", "REPEATABLE READ"])),
            10 => match self.below(3) {
                0 => format!("SET {} {};", self.pick(&["XACT_ABORT", "NOCOUNT", "QUOTED_IDENTIFIER"]), self.pick(&["ON", "OFF"])),
                1 => format!("SET LOCK_TIMEOUT {};", self.pick(&["0", "500", "-1"])),
                _ => format!("SET DEADLOCK_PRIORITY {};", self.pick(&["LOW", "HIGH", "-5", "NORMAL"])),
            },
            11 => format!("EXEC sp_getapplock @Resource = {}, @LockMode = '{}', @LockOwner = '{}', @LockTimeout = {};", self.string(), self.pick(&["Exclusive", "Shared", "Update", "Bogus"]), self.pick(&["Transaction", "Session"]), self.number()),
            12 => format!("THROW 50001, {}, 1;", self.string()),
            13 => format!("PRINT {};", self.expr()),
            14 => format!("IF {} {} ELSE {}", self.cond(), self.statement(), self.statement()),
            15 => format!("WHILE {} BEGIN {} {} END", self.cond(), self.statement(), self.pick(&["BREAK;", "CONTINUE;", "SET @n += 1;", ""])),
            16 => format!("BEGIN TRY {} END TRY BEGIN CATCH {} END CATCH", self.statement(), self.statement()),
            17 => format!("WITH n AS (SELECT 1 AS i UNION ALL SELECT i + 1 FROM n WHERE i < {}) SELECT i FROM n;", self.number()),
            18 => format!("TRUNCATE TABLE {};", self.pick(TABLES)),
            19 => format!("DROP TABLE {};", self.pick(TABLES)),
            20 => format!("EXEC {} {};", self.pick(&["p", "dbo.next_task", "p2"]), if self.chance(50) { self.number() } else { self.string() }),
            21 => format!("RAISERROR({}, {}, 1);", self.string(), self.pick(&["10", "16", "20"])),
            22 => format!("BEGIN {} {} END", self.statement(), self.statement()),
            _ => format!(
                "WITH next AS (SELECT TOP (1) id, status FROM task{} WHERE status = 'new' ORDER BY id) UPDATE next SET status = 'taken' OUTPUT inserted.id;",
                self.hints()
            ),
        };
        self.depth -= 1;
        s
    }

    /// DDL the statements above can run against (setup, and sometimes a session).
    pub fn schema(&mut self) -> String {
        let mut s = String::from(
            "CREATE TABLE task (id int IDENTITY(1,1) PRIMARY KEY, status varchar(20) NOT NULL DEFAULT 'new', owner varchar(30) NULL, rank tinyint NULL, v int NULL, taken datetime2(3) NULL, name nvarchar(50) NULL);\n\
             CREATE TABLE claim (id int NOT NULL, owner varchar(30));\n\
             CREATE TABLE t (id int PRIMARY KEY, v int);\n\
             INSERT task (status) VALUES ('new'), ('new'), ('new');\n\
             INSERT t VALUES (1, 1), (2, 2);\n",
        );
        if self.chance(40) {
            let unique = self.chance(30);
            s += &format!(
                "CREATE {}INDEX ix ON task ({}){};\n",
                if unique { "UNIQUE " } else { "" },
                if unique { "id" } else { self.pick(COLUMNS) },
                if self.chance(50) {
                    " WHERE status = 'new'"
                } else {
                    ""
                }
            );
        }
        s += "GO\n";
        if self.chance(40) {
            s += &format!(
                "CREATE PROCEDURE p @n int AS BEGIN {} END\nGO\n",
                self.statement()
            );
        }
        if self.chance(20) {
            s += &format!(
                "CREATE TRIGGER tr ON {} AFTER {} AS {}\nGO\n",
                self.pick(&["task", "t", "claim"]),
                self.pick(&["INSERT", "UPDATE", "DELETE", "INSERT, UPDATE"]),
                self.statement()
            );
        }
        s
    }

    /// A session's script: a few statements, sometimes with an oddity spliced in.
    pub fn script(&mut self) -> String {
        let n = 1 + self.below(6);
        let mut s = String::new();
        for _ in 0..n {
            s += &self.statement();
            s.push('\n');
            if self.chance(8) {
                s += "GO\n";
            }
        }
        if !self.strict && self.chance(10) {
            let at = self.below(s.len() + 1);
            let at = (0..=at).rev().find(|&k| s.is_char_boundary(k)).unwrap_or(0);
            let odd = self.pick(ODDITIES);
            s.insert_str(at, odd);
        }
        s
    }

    /// A Teradata script: queue tables, consumes, BT/ET, BTEQ dot commands.
    pub fn teradata_script(&mut self) -> String {
        let mut s = String::new();
        if self.chance(30) {
            s += self.pick(&[
                ".SET SESSION TRANSACTION ANSI\n",
                ".SET SESSION TRANSACTION BTET\n",
                ".REPEAT 3\n",
                ".LOGON x\n",
            ]);
        }
        let n = 1 + self.below(5);
        for _ in 0..n {
            s += match self.below(9) {
                0 => "SELECT AND CONSUME TOP 1 * FROM q;\n",
                1 => "INSERT INTO q (id) VALUES (1);\n",
                2 => "BT;\n",
                3 => "ET;\n",
                4 => "ABORT;\n",
                5 => "COMMIT;\n",
                6 => "LOCKING TABLE q FOR WRITE SELECT AND CONSUME TOP 1 id FROM q;\n",
                7 => "DELETE FROM q WHERE id = 1;\n",
                _ => "SELECT id FROM q WHERE id = 1;\n",
            };
            if self.chance(20) {
                s += "INSERT INTO q (id) VALUES (2); SELECT AND CONSUME TOP 1 * FROM q;\n";
            }
        }
        s
    }
}
