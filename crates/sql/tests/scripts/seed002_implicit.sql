        SELECT AND CONSUME TOP 1 col_1_qits, qsn
    FROM myqueue;

    SELECT AND CONSUME TOP 1 col_1_qits, USER, CURRENT_TIMESTAMP
    FROM myqueue;

    SELECT AND CONSUME TOP 1 *
    FROM myqueue;
