use lockstep_sql::ast::*;
#[test]
fn sizes() {
    eprintln!("Stmt {} StmtKind {} Select {} Expr {} ExprKind {} TableFactor {} Update {} Insert {} SelectItem {} ParseError {} Result<Expr> {}",
      std::mem::size_of::<Stmt>(), std::mem::size_of::<StmtKind>(), std::mem::size_of::<Select>(), std::mem::size_of::<Expr>(), std::mem::size_of::<ExprKind>(), std::mem::size_of::<TableFactor>(), std::mem::size_of::<Update>(), std::mem::size_of::<Insert>(), std::mem::size_of::<SelectItem>(), std::mem::size_of::<lockstep_sql::ParseError>(), std::mem::size_of::<Result<Expr, lockstep_sql::ParseError>>());
}
