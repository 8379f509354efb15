//! CREATE / ALTER / DROP and data types.

use super::{PResult, Parser};
use crate::ast::{
    ColumnDef, CreateIndex, CreateProcedure, CreateTable, CreateTrigger, DataType, DatabaseOption,
    DmlEvent, ExprKind, ForeignKey, Ident, IndexColumn, Len, Literal, ObjectName, Param, RefAction,
    StmtKind, TableConstraint, TableConstraintKind, Termination, TriggerTiming,
};
use crate::lexer::Tok;
use crate::ParseError;

impl Parser<'_> {
    pub(crate) fn create(&mut self) -> PResult<StmtKind> {
        let create = self.advance();
        let or_alter = if self.at_kw("OR") {
            self.advance();
            self.expect_kw("ALTER")?;
            true
        } else {
            false
        };
        self.note("PROCEDURE");
        self.note("TRIGGER");
        if !or_alter {
            self.note("TABLE");
            self.note("INDEX");
            self.note("UNIQUE");
            self.note("CLUSTERED");
            self.note("NONCLUSTERED");
        }
        let Some(word) = self.word_at(0) else {
            return Err(self.unexpected());
        };
        match word.as_str() {
            "PROC" | "PROCEDURE" => {
                self.first_in_batch(create.start, "CREATE PROCEDURE")?;
                self.advance();
                Ok(StmtKind::CreateProcedure(self.procedure(or_alter)?))
            }
            "TRIGGER" => {
                self.first_in_batch(create.start, "CREATE TRIGGER")?;
                self.advance();
                Ok(StmtKind::CreateTrigger(self.trigger(or_alter)?))
            }
            "TABLE" if !or_alter => {
                self.advance();
                Ok(StmtKind::CreateTable(self.create_table()?))
            }
            "SET" | "MULTISET" if !or_alter && self.kw_at(1, "TABLE") => {
                let span = create.start..self.tok_at(1).map_or(self.eof, |t| t.end);
                Err(self.teradata_syntax(&format!("CREATE {word} TABLE"), span))
            }
            "INDEX" | "UNIQUE" | "CLUSTERED" | "NONCLUSTERED" if !or_alter => {
                Ok(StmtKind::CreateIndex(self.create_index()?))
            }
            "VIEW" | "FUNCTION" | "TYPE" | "SCHEMA" | "DATABASE" | "SEQUENCE" | "SYNONYM"
            | "STATISTICS" | "LOGIN" | "USER" | "ROLE" | "QUEUE" | "SERVICE" | "XML"
            | "COLUMNSTORE" | "SPATIAL" | "FULLTEXT" => {
                let span = create.start..self.cur_span().end;
                let what = if or_alter {
                    format!("CREATE OR ALTER {word}")
                } else {
                    format!("CREATE {word}")
                };
                Err(self.not_simulated(span, &what))
            }
            _ => Err(self.unexpected()),
        }
    }

    /// SQL Server requires CREATE PROCEDURE/TRIGGER to begin its batch (Msg 111).
    fn first_in_batch(&self, start: usize, what: &str) -> PResult<()> {
        if self.top_level_count == 0 && self.depth == 1 {
            return Ok(());
        }
        Err(ParseError::new(
            start..self.cur_span().end,
            format!("{what} must be the first statement in a batch (put GO before it)"),
        ))
    }

    /// After `CREATE [OR ALTER] PROC[EDURE]`.
    fn procedure(&mut self, or_alter: bool) -> PResult<CreateProcedure> {
        let name = self.object_name()?;
        if self.at(Tok::Semi) && self.kind_at(1) == Some(Tok::Int) {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "numbered procedures"));
        }
        let parens = self.eat(Tok::LParen);
        let mut params = Vec::new();
        if self.at(Tok::Var) {
            loop {
                params.push(self.param()?);
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
        }
        if parens {
            self.expect(Tok::RParen)?;
        }
        if self.kw_at(0, "WITH") || self.kw_at(0, "FOR") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "procedure options (WITH/FOR REPLICATION)"));
        }
        self.expect_kw("AS")?;
        let body = self.body_to_end_of_batch()?;
        Ok(CreateProcedure {
            or_alter,
            name,
            params,
            body,
        })
    }

    /// A procedure or trigger body: every statement to the end of the batch, at least one.
    fn body_to_end_of_batch(&mut self) -> PResult<Vec<crate::ast::Stmt>> {
        let mut body = vec![self.statement_in_list()?];
        while !self.at_eof() {
            body.push(self.statement_in_list()?);
        }
        Ok(body)
    }

    fn param(&mut self) -> PResult<Param> {
        let start = self.cur_start();
        let name = self.var_ident()?;
        self.declare_var(&name)?;
        self.eat_kw("AS");
        let ty = self.data_type(false)?;
        if self.kw_at(0, "VARYING") || self.kw_at(0, "READONLY") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "VARYING/READONLY parameters"));
        }
        let default = if self.eat(Tok::Eq) {
            Some(self.expr()?)
        } else {
            None
        };
        let output = self.eat_kw("OUTPUT") || self.eat_kw("OUT");
        if self.kw_at(0, "READONLY") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "READONLY parameters"));
        }
        Ok(Param {
            name,
            ty,
            default,
            output,
            span: start..self.prev_end(),
        })
    }

    /// After `CREATE [OR ALTER] TRIGGER`.
    fn trigger(&mut self, or_alter: bool) -> PResult<CreateTrigger> {
        let name = self.object_name()?;
        self.expect_kw("ON")?;
        if self.kw_at(0, "DATABASE") || self.kw_at(0, "ALL") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "DDL triggers"));
        }
        let table = self.object_name()?;
        if self.kw_at(0, "WITH") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "trigger options (WITH ...)"));
        }
        let timing = if self.eat_kw("AFTER") || self.eat_kw("FOR") {
            TriggerTiming::After
        } else {
            self.expect_kw("INSTEAD")?;
            self.expect_kw("OF")?;
            TriggerTiming::InsteadOf
        };
        let mut events = Vec::new();
        loop {
            let event = if self.eat_kw("INSERT") {
                DmlEvent::Insert
            } else if self.eat_kw("UPDATE") {
                DmlEvent::Update
            } else {
                self.expect_kw("DELETE")?;
                DmlEvent::Delete
            };
            events.push(event);
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        if self.kw_at(0, "WITH") || self.kw_at(0, "NOT") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "WITH APPEND / NOT FOR REPLICATION"));
        }
        self.expect_kw("AS")?;
        let body = self.body_to_end_of_batch()?;
        Ok(CreateTrigger {
            or_alter,
            name,
            table,
            timing,
            events,
            body,
        })
    }

    fn create_table(&mut self) -> PResult<CreateTable> {
        let if_not_exists = self.postgres()
            && self.kw_at(0, "IF")
            && self.kw_at(1, "NOT")
            && self.kw_at(2, "EXISTS");
        if if_not_exists {
            self.advance();
            self.advance();
            self.advance();
        }
        let name = self.object_name()?;
        if self.kw_at(0, "AS") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "graph and FileTable tables"));
        }
        if self.kind_at(0) == Some(Tok::Comma) && self.kind_at(1) == Some(Tok::Word) {
            let span = self.cur_start()..self.tok_at(1).map_or(self.eof, |t| t.end);
            return Err(self.teradata_syntax("table options (, QUEUE)", span));
        }
        let (columns, constraints) = self.table_elements()?;
        let primary_index = (self.kw_at(0, "PRIMARY") || self.kw_at(0, "UNIQUE"))
            && (self.kw_at(1, "INDEX") || self.kw_at(2, "INDEX"));
        if primary_index {
            let span = self.cur_span();
            return Err(self.teradata_syntax("PRIMARY INDEX", span));
        }
        if self.kw_at(0, "ON") || self.kw_at(0, "WITH") || self.kw_at(0, "TEXTIMAGE_ON") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "table storage options (ON/WITH)"));
        }
        Ok(CreateTable {
            name,
            columns,
            constraints,
            set_table: None,
            queue: false,
            options: Vec::new(),
            primary_index: None,
            if_not_exists,
        })
    }

    /// `(column defs and table constraints)` of CREATE TABLE or DECLARE @t TABLE.
    pub(crate) fn table_elements(&mut self) -> PResult<(Vec<ColumnDef>, Vec<TableConstraint>)> {
        self.expect(Tok::LParen)?;
        let mut columns = Vec::new();
        let mut constraints = Vec::new();
        loop {
            let constraint_start = self.kw_at(0, "CONSTRAINT")
                || self.kw_at(0, "PRIMARY")
                || self.kw_at(0, "UNIQUE")
                || self.kw_at(0, "CHECK")
                || self.kw_at(0, "FOREIGN")
                || self.kw_at(0, "INDEX");
            if constraint_start {
                constraints.push(self.table_constraint()?);
            } else {
                self.note("CONSTRAINT");
                self.note("PRIMARY");
                self.note("UNIQUE");
                self.note("CHECK");
                columns.push(self.column_def()?);
            }
            if !self.eat(Tok::Comma) {
                break;
            }
            // SQL Server accepts a trailing comma before the closing parenthesis.
            if !self.teradata() && self.at(Tok::RParen) {
                break;
            }
        }
        self.expect(Tok::RParen)?;
        Ok((columns, constraints))
    }

    fn table_constraint(&mut self) -> PResult<TableConstraint> {
        let start = self.cur_start();
        let name = if self.eat_kw("CONSTRAINT") {
            Some(self.ident()?)
        } else {
            None
        };
        let kind = if self.eat_kw("PRIMARY") {
            self.expect_kw("KEY")?;
            let clustered = self.opt_clustered();
            TableConstraintKind::PrimaryKey {
                clustered,
                columns: self.index_columns()?,
            }
        } else if self.eat_kw("UNIQUE") {
            let clustered = self.opt_clustered();
            TableConstraintKind::Unique {
                clustered,
                columns: self.index_columns()?,
            }
        } else if self.eat_kw("CHECK") {
            self.check_not_for_replication()?;
            self.expect(Tok::LParen)?;
            let e = self.condition()?;
            self.expect(Tok::RParen)?;
            TableConstraintKind::Check(e)
        } else if self.kw_at(0, "FOREIGN") && self.postgres() {
            self.advance();
            self.expect_kw("KEY")?;
            let columns = self.ident_list_in_parens()?;
            TableConstraintKind::ForeignKey(self.references(columns)?)
        } else if self.kw_at(0, "FOREIGN") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "foreign keys"));
        } else if self.kw_at(0, "INDEX") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "inline index definitions"));
        } else if self.kw_at(0, "DEFAULT") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "table-level DEFAULT constraints"));
        } else {
            return Err(self.unexpected());
        };
        if self.kw_at(0, "WITH") || self.kw_at(0, "ON") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "index options (WITH/ON)"));
        }
        Ok(TableConstraint {
            name,
            kind,
            span: start..self.prev_end(),
        })
    }

    fn check_not_for_replication(&mut self) -> PResult<()> {
        if self.kw_at(0, "NOT") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "NOT FOR REPLICATION"));
        }
        Ok(())
    }

    fn opt_clustered(&mut self) -> Option<bool> {
        if self.teradata() {
            return None;
        }
        if self.eat_kw("CLUSTERED") {
            Some(true)
        } else if self.eat_kw("NONCLUSTERED") {
            Some(false)
        } else {
            None
        }
    }

    /// `(a [ASC|DESC], ...)`.
    fn index_columns(&mut self) -> PResult<Vec<IndexColumn>> {
        self.expect(Tok::LParen)?;
        let mut columns = Vec::new();
        loop {
            let name = self.ident()?;
            let desc = if self.eat_kw("DESC") {
                true
            } else {
                self.eat_kw("ASC");
                false
            };
            columns.push(IndexColumn { name, desc });
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.expect(Tok::RParen)?;
        Ok(columns)
    }

    /// `REFERENCES table [(columns)]` and its MATCH, ON DELETE, ON UPDATE and
    /// deferrability clauses, for the foreign key on `columns`.
    fn references(&mut self, columns: Vec<Ident>) -> PResult<ForeignKey> {
        self.expect_kw("REFERENCES")?;
        let table = self.object_name()?;
        let ref_columns = if self.at(Tok::LParen) {
            self.ident_list_in_parens()?
        } else {
            Vec::new()
        };
        let (mut on_delete, mut on_update) = (None, None);
        loop {
            let start = self.cur_start();
            if self.eat_kw("MATCH") {
                if !self.eat_kw("SIMPLE") {
                    let span = start..self.cur_span().end;
                    return Err(self.not_simulated(span, "MATCH FULL and MATCH PARTIAL"));
                }
            } else if self.at_kw("ON")
                && ((self.kw_at(1, "DELETE") && on_delete.is_none())
                    || (self.kw_at(1, "UPDATE") && on_update.is_none()))
            {
                self.advance();
                let delete = self.eat_kw("DELETE");
                if !delete {
                    self.expect_kw("UPDATE")?;
                }
                let action = self.ref_action()?;
                *(if delete {
                    &mut on_delete
                } else {
                    &mut on_update
                }) = Some(action);
            } else if (self.at_kw("NOT") && self.kw_at(1, "DEFERRABLE"))
                || (self.at_kw("INITIALLY") && self.kw_at(1, "IMMEDIATE"))
            {
                self.advance();
                self.advance();
            } else if self.at_kw("DEFERRABLE") || self.at_kw("INITIALLY") {
                let span = self.cur_span();
                return Err(self.not_simulated(span, "deferrable foreign keys"));
            } else {
                break;
            }
        }
        Ok(ForeignKey {
            columns,
            table,
            ref_columns,
            on_delete: on_delete.unwrap_or_default(),
            on_update: on_update.unwrap_or_default(),
        })
    }

    /// `NO ACTION | RESTRICT | CASCADE | SET NULL | SET DEFAULT`.
    fn ref_action(&mut self) -> PResult<RefAction> {
        Ok(if self.eat_kw("NO") {
            self.expect_kw("ACTION")?;
            RefAction::NoAction
        } else if self.eat_kw("RESTRICT") {
            RefAction::Restrict
        } else if self.eat_kw("CASCADE") {
            RefAction::Cascade
        } else if self.eat_kw("SET") {
            let action = if self.eat_kw("NULL") {
                RefAction::SetNull
            } else {
                self.expect_kw("DEFAULT")?;
                RefAction::SetDefault
            };
            if self.at(Tok::LParen) {
                let span = self.cur_span();
                return Err(self.not_simulated(span, "SET NULL or SET DEFAULT of some columns"));
            }
            action
        } else {
            self.note("NO ACTION");
            self.note("RESTRICT");
            self.note("CASCADE");
            self.note("SET NULL");
            self.note("SET DEFAULT");
            return Err(self.unexpected());
        })
    }

    fn column_def(&mut self) -> PResult<ColumnDef> {
        if self.teradata() {
            return self.teradata_column_def();
        }
        let start = self.cur_start();
        let name = self.ident()?;
        if self.kw_at(0, "AS") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "computed columns"));
        }
        let serial = self.pg_serial_at();
        let ty = self.data_type(false)?;
        let mut col = ColumnDef {
            name,
            ty,
            nullable: serial.then_some(false),
            identity: serial.then_some((1, 1)),
            identity_always: false,
            default: None,
            primary_key: false,
            unique: false,
            clustered: None,
            check: None,
            references: None,
            span: 0..0,
        };
        loop {
            let attr_start = self.cur_start();
            let mut named = None;
            if self.eat_kw("CONSTRAINT") {
                // Column constraint names are accepted and dropped (nothing refers to
                // them), but a foreign key's, which its errors name.
                named = Some(self.ident()?);
                if !(self.kw_at(0, "DEFAULT")
                    || self.kw_at(0, "PRIMARY")
                    || self.kw_at(0, "UNIQUE")
                    || self.kw_at(0, "CHECK")
                    || self.kw_at(0, "REFERENCES")
                    || self.kw_at(0, "FOREIGN"))
                {
                    self.note("DEFAULT");
                    self.note("PRIMARY");
                    self.note("UNIQUE");
                    self.note("CHECK");
                    return Err(self.unexpected());
                }
            }
            if self.eat_kw("IDENTITY") {
                let (seed, step) = if self.eat(Tok::LParen) {
                    let seed = self.signed_int()?;
                    self.expect(Tok::Comma)?;
                    let step = self.signed_int()?;
                    self.expect(Tok::RParen)?;
                    (seed, step)
                } else {
                    (1, 1)
                };
                self.duplicate(col.identity.is_some(), attr_start, "IDENTITY")?;
                col.identity = Some((seed, step));
            } else if self.postgres() && self.at_kw("GENERATED") {
                let (always, seed, step) = self.pg_generated_identity()?;
                self.duplicate(col.identity.is_some(), attr_start, "IDENTITY")?;
                col.identity = Some((seed, step));
                col.identity_always = always;
                // An identity column is NOT NULL, said or not.
                if col.nullable == Some(true) {
                    return Err(ParseError::new(
                        attr_start..self.prev_end(),
                        format!(
                            "conflicting NULL/NOT NULL declarations for column \"{}\"",
                            col.name.value
                        ),
                    ));
                }
                col.nullable = Some(false);
            } else if self.eat_kw("NULL") {
                self.duplicate(col.nullable.is_some(), attr_start, "NULL/NOT NULL")?;
                col.nullable = Some(true);
            } else if self.at_kw("NOT") && self.kw_at(1, "NULL") {
                self.advance();
                self.advance();
                self.duplicate(col.nullable.is_some(), attr_start, "NULL/NOT NULL")?;
                col.nullable = Some(false);
            } else if self.eat_kw("DEFAULT") {
                let e = self.expr()?;
                self.duplicate(col.default.is_some(), attr_start, "DEFAULT")?;
                col.default = Some(e);
            } else if self.eat_kw("PRIMARY") {
                self.expect_kw("KEY")?;
                self.duplicate(col.primary_key, attr_start, "PRIMARY KEY")?;
                col.primary_key = true;
                col.clustered = self.opt_clustered();
            } else if self.eat_kw("UNIQUE") {
                col.unique = true;
                col.clustered = self.opt_clustered();
            } else if self.eat_kw("CHECK") {
                self.check_not_for_replication()?;
                self.expect(Tok::LParen)?;
                col.check = Some(self.condition()?);
                self.expect(Tok::RParen)?;
            } else if self.postgres() && self.at_kw("REFERENCES") {
                self.duplicate(col.references.is_some(), attr_start, "REFERENCES")?;
                col.references = Some((named.take(), self.references(Vec::new())?));
            } else if let Some(
                w @ ("REFERENCES" | "FOREIGN" | "COLLATE" | "ROWGUIDCOL" | "SPARSE" | "FILESTREAM"
                | "MASKED" | "GENERATED" | "ENCRYPTED"),
            ) = self.word_at(0).as_deref()
            {
                let span = self.cur_span();
                return Err(self.not_simulated(span, &format!("column option {w}")));
            } else {
                break;
            }
        }
        col.span = start..self.prev_end();
        Ok(col)
    }

    /// PostgreSQL's `GENERATED {ALWAYS | BY DEFAULT} AS IDENTITY [(START [WITH] n
    /// INCREMENT [BY] m)]`: whether ALWAYS, the first value and the step.
    fn pg_generated_identity(&mut self) -> PResult<(bool, i64, i64)> {
        let start = self.expect_kw("GENERATED")?.start;
        let always = if self.eat_kw("ALWAYS") {
            true
        } else {
            self.note("ALWAYS");
            self.expect_kw("BY")?;
            self.expect_kw("DEFAULT")?;
            false
        };
        self.expect_kw("AS")?;
        if self.at(Tok::LParen) {
            return Err(self.not_simulated(start..self.cur_start(), "generated columns"));
        }
        self.expect_kw("IDENTITY")?;
        let (mut seed, mut step) = (None, 1);
        if self.eat(Tok::LParen) {
            loop {
                if self.eat_kw("START") {
                    self.eat_kw("WITH");
                    seed = Some(self.signed_int()?);
                } else if self.eat_kw("INCREMENT") {
                    self.eat_kw("BY");
                    step = self.signed_int()?;
                    if step == 0 {
                        return Err(ParseError::new(
                            start..self.prev_end(),
                            "INCREMENT must not be zero",
                        ));
                    }
                } else if self.at(Tok::RParen) {
                    break;
                } else {
                    let span = self.cur_span();
                    let what = self.word_at(0).unwrap_or_default().to_lowercase();
                    return Err(self.not_simulated(span, &format!("sequence option {what}")));
                }
            }
            self.expect(Tok::RParen)?;
        }
        // A descending sequence starts at its (default) maximum; only -1 steps from -1.
        let seed = seed.unwrap_or(if step > 0 { 1 } else { -1 });
        Ok((always, seed, step))
    }

    pub(super) fn duplicate(&self, already: bool, start: usize, what: &str) -> PResult<()> {
        if already {
            return Err(ParseError::new(
                start..self.prev_end(),
                format!("{what} given twice for the same column"),
            ));
        }
        Ok(())
    }

    fn signed_int(&mut self) -> PResult<i64> {
        let e = self.expr()?;
        match e.kind {
            ExprKind::Literal(Literal::Int(n)) => Ok(n),
            _ => Err(ParseError::new(e.span, "expected an integer")),
        }
    }

    /// `CREATE [UNIQUE] [CLUSTERED|NONCLUSTERED] INDEX name ON table (cols) [INCLUDE (...)] [WHERE ...]`.
    fn create_index(&mut self) -> PResult<CreateIndex> {
        let unique = self.eat_kw("UNIQUE");
        let clustered = self.opt_clustered();
        if self.kw_at(0, "COLUMNSTORE") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "columnstore indexes"));
        }
        self.expect_kw("INDEX")?;
        // PostgreSQL's forms the simulator has no model for, named rather than read as
        // an index called `concurrently`.
        if self.postgres() && self.kw_at(0, "CONCURRENTLY") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "CREATE INDEX CONCURRENTLY"));
        }
        let if_not_exists = self.postgres()
            && self.kw_at(0, "IF")
            && self.kw_at(1, "NOT")
            && self.kw_at(2, "EXISTS");
        if if_not_exists {
            for _ in 0..3 {
                self.advance();
            }
        }
        // PostgreSQL names an unnamed index itself (`Rules::index_name`): an empty name.
        // IF NOT EXISTS needs a name there (`ON` after it is a syntax error).
        let name = if self.postgres() && !if_not_exists && self.kw_at(0, "ON") {
            let at = self.cur_start();
            crate::ast::Ident {
                value: String::new(),
                span: at..at,
            }
        } else {
            self.ident()?
        };
        self.expect_kw("ON")?;
        let table = self.object_name()?;
        if self.postgres() && self.kw_at(0, "USING") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "CREATE INDEX ... USING (index methods)"));
        }
        let columns = self.index_columns()?;
        let include = if self.eat_kw("INCLUDE") {
            self.ident_list_in_parens()?
        } else {
            Vec::new()
        };
        let filter = if self.eat_kw("WHERE") {
            Some(self.condition()?)
        } else {
            None
        };
        if self.kw_at(0, "WITH") || self.kw_at(0, "ON") {
            let span = self.cur_span();
            return Err(self.not_simulated(span, "index options (WITH/ON)"));
        }
        Ok(CreateIndex {
            unique,
            clustered,
            name,
            table,
            columns,
            include,
            filter,
            if_not_exists,
        })
    }

    pub(crate) fn alter(&mut self) -> PResult<StmtKind> {
        let alter = self.advance();
        if !self.at_kw("DATABASE") {
            let span = alter.start..self.cur_span().end;
            let what = match self.word_at(0) {
                Some(w) => format!("ALTER {w}"),
                None => "ALTER".to_string(),
            };
            if self.at_eof() {
                return Err(self.unexpected());
            }
            return Err(self.not_simulated(span, &what));
        }
        self.advance();
        let database = if self.eat_kw("CURRENT") {
            None
        } else {
            Some(self.ident()?)
        };
        if !self.at_kw("SET") {
            let span = self.cur_span();
            if self.at_eof() {
                return Err(self.unexpected());
            }
            return Err(self.not_simulated(span, "ALTER DATABASE other than SET"));
        }
        self.advance();
        self.note("READ_COMMITTED_SNAPSHOT");
        self.note("ALLOW_SNAPSHOT_ISOLATION");
        let option_span = self.cur_span();
        let make: fn(bool) -> DatabaseOption = match self.word_at(0).as_deref() {
            Some("READ_COMMITTED_SNAPSHOT") => DatabaseOption::ReadCommittedSnapshot,
            Some("ALLOW_SNAPSHOT_ISOLATION") => DatabaseOption::AllowSnapshotIsolation,
            Some(w) if !crate::keywords::is_reserved(w, self.dialect) => {
                return Err(self.not_simulated(option_span, &format!("ALTER DATABASE SET {w}")))
            }
            _ => return Err(self.unexpected()),
        };
        self.advance();
        let on = if self.eat_kw("ON") {
            true
        } else {
            self.expect_kw("OFF")?;
            false
        };
        let termination = if self.eat_kw("WITH") {
            if self.eat_kw("NO_WAIT") {
                Some(Termination::NoWait)
            } else {
                self.expect_kw("ROLLBACK")?;
                if self.eat_kw("IMMEDIATE") {
                    Some(Termination::RollbackImmediate)
                } else {
                    self.expect_kw("AFTER")?;
                    let n = self.signed_int()?;
                    self.eat_kw("SECONDS");
                    Some(Termination::RollbackAfter(n))
                }
            }
        } else {
            None
        };
        Ok(StmtKind::AlterDatabaseSet {
            database,
            option: make(on),
            termination,
        })
    }

    pub(crate) fn drop(&mut self) -> PResult<StmtKind> {
        let drop = self.advance();
        let kind = self.word_at(0).unwrap_or_default();
        self.note("TABLE");
        self.note("PROCEDURE");
        self.note("TRIGGER");
        self.note("INDEX");
        match kind.as_str() {
            "TABLE" | "PROC" | "PROCEDURE" | "TRIGGER" => {
                self.advance();
                let if_exists = self.if_exists()?;
                let mut names = vec![self.object_name()?];
                while self.eat(Tok::Comma) {
                    names.push(self.object_name()?);
                }
                Ok(match kind.as_str() {
                    "TABLE" => StmtKind::DropTable { names, if_exists },
                    "TRIGGER" => StmtKind::DropTrigger { names, if_exists },
                    _ => StmtKind::DropProcedure { names, if_exists },
                })
            }
            "INDEX" => {
                self.advance();
                let if_exists = self.if_exists()?;
                let name: ObjectName = self.object_name()?;
                if name.parts.len() > 1 && !self.postgres() {
                    return Err(self.not_simulated(name.span, "DROP INDEX table.index (use ON)"));
                }
                // PostgreSQL's index names are the schema's: no ON (it is a syntax error).
                let table = if self.postgres() {
                    if self.at(Tok::Comma) {
                        let span = self.cur_span();
                        return Err(self.not_simulated(span, "DROP INDEX of several indexes"));
                    }
                    if self.kw_at(0, "CASCADE") || self.kw_at(0, "RESTRICT") {
                        self.advance();
                    }
                    None
                } else {
                    self.expect_kw("ON")?;
                    Some(self.object_name()?)
                };
                let name = name.parts.into_iter().next_back().expect("one part");
                Ok(StmtKind::DropIndex {
                    name,
                    table,
                    if_exists,
                })
            }
            w if !w.is_empty() => {
                let span = drop.start..self.cur_span().end;
                Err(self.not_simulated(span, &format!("DROP {w}")))
            }
            _ => Err(self.unexpected()),
        }
    }

    fn if_exists(&mut self) -> PResult<bool> {
        if self.eat_kw("IF") {
            self.expect_kw("EXISTS")?;
            return Ok(true);
        }
        Ok(false)
    }

    /// A data type; `in_cast` selects the default length of varchar (30 in CAST, else 1).
    pub(crate) fn data_type(&mut self, in_cast: bool) -> PResult<DataType> {
        let ty = self.one_data_type(in_cast)?;
        if self.postgres() {
            return self.pg_no_array(ty);
        }
        Ok(ty)
    }

    fn one_data_type(&mut self, in_cast: bool) -> PResult<DataType> {
        if self.teradata() {
            return self.teradata_data_type();
        }
        self.note("a data type");
        if self.postgres() {
            if let Some(ty) = self.pg_data_type()? {
                return Ok(ty);
            }
        }
        let span = self.cur_span();
        let name = match self.tok_at(0) {
            Some(t) if t.kind == Tok::Word => self.text(t).to_ascii_lowercase(),
            Some(t) if t.kind == Tok::QuotedIdent => {
                crate::lexer::unquote_ident(self.text(t)).to_ascii_lowercase()
            }
            _ => return Err(self.unexpected()),
        };
        let qualified = self.kind_at(1) == Some(Tok::Dot);
        if qualified {
            return Err(self.not_simulated(span, "user-defined types"));
        }
        let default_len = if in_cast { 30 } else { 1 };
        let ty = match name.as_str() {
            "tinyint" => DataType::TinyInt,
            "smallint" => DataType::SmallInt,
            "int" | "integer" => DataType::Int,
            "bigint" => DataType::BigInt,
            "bit" => DataType::Bit,
            "float" | "real" => DataType::Float,
            "money" => DataType::Money,
            "datetime" => DataType::DateTime,
            "date" => DataType::Date,
            "uniqueidentifier" => DataType::UniqueIdentifier,
            "sysname" => DataType::SysName,
            "decimal" | "numeric" | "dec" | "char" | "character" | "varchar" | "nchar"
            | "nvarchar" | "datetime2" | "time" => {
                self.advance();
                return self.sized_type(&name, span.start, default_len);
            }
            "xml" | "text" | "ntext" | "image" | "binary" | "varbinary" | "smalldatetime"
            | "datetimeoffset" | "rowversion" | "timestamp" | "smallmoney" | "sql_variant"
            | "geography" | "geometry" | "hierarchyid" | "cursor" | "table" | "json" | "vector" => {
                return Err(self.not_simulated(span, &format!("data type {name}")));
            }
            _ => {
                let found = &self.src[span.clone()];
                return Err(ParseError::new(
                    span.clone(),
                    format!("unknown data type '{found}'"),
                ));
            }
        };
        self.advance();
        if name == "float" && self.at(Tok::LParen) {
            // float(n) only chooses the storage size.
            self.advance();
            self.small_number(1, 53, "float")?;
            self.expect(Tok::RParen)?;
        }
        Ok(ty)
    }

    pub(super) fn sized_type(
        &mut self,
        name: &str,
        start: usize,
        default_len: u32,
    ) -> PResult<DataType> {
        let has_args = self.eat(Tok::LParen);
        let ty = match name {
            "decimal" | "numeric" | "dec" => {
                let (mut precision, mut scale) = (18, 0);
                if !has_args && self.postgres() {
                    scale = crate::ast::ANY_SCALE as u32;
                }
                if has_args {
                    precision = self.small_number(1, 38, name)?;
                    if self.eat(Tok::Comma) {
                        scale = self.small_number(0, precision, name)?;
                    }
                }
                DataType::Decimal {
                    precision: precision as u8,
                    scale: scale as u8,
                }
            }
            "datetime2" | "time" => {
                let p = if has_args {
                    self.small_number(0, 7, name)? as u8
                } else {
                    7
                };
                if name == "time" {
                    DataType::Time(p)
                } else {
                    DataType::DateTime2(p)
                }
            }
            _ => {
                let national = name.starts_with('n');
                let max_len = match (self.postgres(), national) {
                    // PostgreSQL's limit for a declared length.
                    (true, _) => 10_485_760,
                    (false, true) => 4000,
                    (false, false) => 8000,
                };
                let len = if !has_args {
                    // PostgreSQL's varchar without a length has none.
                    if self.postgres() && name == "varchar" {
                        Len::Max
                    } else {
                        Len::N(default_len)
                    }
                } else if self.eat_kw("MAX") {
                    Len::Max
                } else {
                    Len::N(self.small_number(1, max_len, name)?)
                };
                let fixed = matches!(name, "char" | "character" | "nchar");
                match (fixed, national, len) {
                    (true, _, Len::Max) => {
                        return Err(ParseError::new(
                            start..self.prev_end(),
                            format!("{name}(max) is not a type: use var{name}(max)"),
                        ))
                    }
                    (true, false, Len::N(n)) => DataType::Char(n),
                    (true, true, Len::N(n)) => DataType::NChar(n),
                    (false, false, len) => DataType::VarChar(len),
                    (false, true, len) => DataType::NVarChar(len),
                }
            }
        };
        if has_args {
            self.expect(Tok::RParen)?;
        }
        Ok(ty)
    }

    /// An integer literal within `min..=max` (type lengths, precisions).
    pub(super) fn small_number(&mut self, min: u32, max: u32, ty: &str) -> PResult<u32> {
        self.note("a number");
        if !self.at(Tok::Int) {
            return Err(self.unexpected());
        }
        let span = self.advance();
        let n = self.src[span.clone()].parse::<u64>().unwrap_or(u64::MAX);
        if n < u64::from(min) || n > u64::from(max) {
            return Err(ParseError::new(
                span,
                format!("{n} is out of range for {ty}: allowed {min} to {max}"),
            ));
        }
        Ok(n as u32)
    }
}
