//! Control flow flattened into instructions, so a session can stop after any statement
//! (blocked, sleeping, or simply out of turn) and resume later at a program counter.

use std::rc::Rc;

use sql::ast::{Expr, ExprKind, Span, Stmt, StmtKind, VarDecl};

#[derive(Debug)]
pub enum Instr {
    /// A statement that touches data, variables or the transaction.
    Run(Box<Stmt>),
    /// IF / WHILE test: jump to `else_pc` unless `cond` is true; `end_pc` is after the
    /// whole IF or WHILE (where a condition that fails goes on).
    Test {
        cond: Box<Expr>,
        else_pc: usize,
        end_pc: usize,
        span: Span,
        /// The condition reads tables (a subquery), so the test is a statement of its
        /// own; found once here rather than on every pass of a loop.
        has_query: bool,
    },
    /// A declaration set up on block entry, not a statement of its own (PL/pgSQL's
    /// DECLARE section, without an initial value or with a literal one).
    Declare(Vec<VarDecl>),
    Jump(usize),
    /// Start of BEGIN TRY: errors until the matching `TryLeave` go to `catch_pc`
    /// (those numbered in `catches`, when it is given).
    TryEnter {
        catch_pc: usize,
        catches: Option<Rc<[i64]>>,
    },
    /// End of the TRY body: drop the handler and skip the CATCH block.
    TryLeave {
        end_pc: usize,
    },
    /// End of a CATCH block: the caught error is no longer current.
    CatchLeave,
}

/// A compiled batch or procedure body.
#[derive(Debug, Default)]
pub struct Code {
    pub instrs: Vec<Instr>,
}

/// What the dialect says is a statement of its own in the trace.
pub struct Shape<'a> {
    /// Function calls that make an IF or WHILE condition a statement, besides
    /// subqueries (`Rules::call_is_statement`).
    pub call_is_statement: &'a dyn Fn(&str) -> bool,
    /// Whether a DECLARE is a statement (T-SQL), or set up on block entry when its
    /// initial value needs no evaluating (PL/pgSQL; `Rules::declarations_are_statements`).
    pub declarations_are_statements: bool,
}

pub fn compile(stmts: &[Stmt], shape: &Shape<'_>) -> Rc<Code> {
    let mut c = Compiler {
        code: Code::default(),
        loops: Vec::new(),
        shape,
    };
    for s in stmts {
        c.stmt(s);
    }
    Rc::new(c.code)
}

struct Compiler<'a> {
    code: Code,
    shape: &'a Shape<'a>,
    /// Per enclosing WHILE: (continue target, pending BREAK jumps to patch).
    loops: Vec<(usize, Vec<usize>)>,
}

impl Compiler<'_> {
    fn pc(&self) -> usize {
        self.code.instrs.len()
    }

    fn emit(&mut self, i: Instr) -> usize {
        self.code.instrs.push(i);
        self.code.instrs.len() - 1
    }

    fn patch(&mut self, at: usize, target: usize) {
        match &mut self.code.instrs[at] {
            Instr::Test { else_pc, .. } => *else_pc = target,
            Instr::Jump(t) => *t = target,
            Instr::TryEnter { catch_pc, .. } => *catch_pc = target,
            Instr::TryLeave { end_pc } => *end_pc = target,
            _ => {}
        }
    }

    fn patch_end(&mut self, at: usize, target: usize) {
        if let Instr::Test { end_pc, .. } = &mut self.code.instrs[at] {
            *end_pc = target;
        }
    }

    /// Whether a condition is a statement of its own in the trace.
    fn is_statement(&self, cond: &Expr) -> bool {
        crate::syntax::has_subquery(cond)
            || crate::syntax::calls_function(cond, self.shape.call_is_statement)
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Block(body) => {
                for b in body {
                    self.stmt(b);
                }
            }
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                let test = self.emit(Instr::Test {
                    cond: Box::new(cond.clone()),
                    else_pc: 0,
                    end_pc: 0,
                    span: s.span.clone(),
                    has_query: self.is_statement(cond),
                });
                self.stmt(then);
                if let Some(other) = otherwise {
                    let skip = self.emit(Instr::Jump(0));
                    let else_pc = self.pc();
                    self.patch(test, else_pc);
                    self.stmt(other);
                    let end = self.pc();
                    self.patch(skip, end);
                    self.patch_end(test, end);
                } else {
                    let end = self.pc();
                    self.patch(test, end);
                    self.patch_end(test, end);
                }
            }
            StmtKind::While { cond, body } => {
                let top = self.pc();
                let test = self.emit(Instr::Test {
                    cond: Box::new(cond.clone()),
                    else_pc: 0,
                    end_pc: 0,
                    span: s.span.clone(),
                    has_query: self.is_statement(cond),
                });
                self.loops.push((top, Vec::new()));
                self.stmt(body);
                self.emit(Instr::Jump(top));
                let end = self.pc();
                self.patch(test, end);
                self.patch_end(test, end);
                if let Some((_, breaks)) = self.loops.pop() {
                    for b in breaks {
                        self.patch(b, end);
                    }
                }
            }
            StmtKind::Break => {
                let j = self.emit(Instr::Jump(usize::MAX));
                match self.loops.last_mut() {
                    Some((_, breaks)) => breaks.push(j),
                    // BREAK outside a loop ends the batch, as SQL Server does.
                    None => self.patch(j, usize::MAX),
                }
            }
            StmtKind::Continue => {
                let target = self.loops.last().map_or(usize::MAX, |(top, _)| *top);
                self.emit(Instr::Jump(target));
            }
            StmtKind::TryCatch {
                body,
                handler,
                catches,
            } => {
                let enter = self.emit(Instr::TryEnter {
                    catch_pc: 0,
                    catches: catches.as_deref().map(Rc::from),
                });
                for b in body {
                    self.stmt(b);
                }
                let leave = self.emit(Instr::TryLeave { end_pc: 0 });
                let catch_pc = self.pc();
                self.patch(enter, catch_pc);
                for h in handler {
                    self.stmt(h);
                }
                self.emit(Instr::CatchLeave);
                let end = self.pc();
                self.patch(leave, end);
            }
            StmtKind::Empty => {}
            StmtKind::Declare(decls)
                if !self.shape.declarations_are_statements
                    && decls.iter().all(|d| {
                        d.init
                            .as_ref()
                            .is_none_or(|e| matches!(e.kind, ExprKind::Literal(_)))
                    }) =>
            {
                self.emit(Instr::Declare(decls.clone()));
            }
            _ => {
                self.emit(Instr::Run(Box::new(s.clone())));
            }
        }
    }
}
