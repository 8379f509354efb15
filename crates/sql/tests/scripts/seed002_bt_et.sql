        BEGIN TRANSACTION;
      SELECT AND CONSUME TOP 1 *
      FROM myqueue;

      SELECT AND CONSUME TOP 1 *
      FROM myqueue;

      SELECT AND CONSUME TOP 1 *
      FROM myqueue;
    END TRANSACTION;
