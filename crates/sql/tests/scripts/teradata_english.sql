-- A queue table lesson in Teradata SQL: setup, producers, consumers.
CREATE MULTISET TABLE job_queue, QUEUE, NO FALLBACK (
    qits TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    job_id INTEGER NOT NULL,
    payload VARCHAR(100) CHARACTER SET LATIN NOT CASESPECIFIC,
    producer CHAR(2)
) PRIMARY INDEX (job_id);
CT job_log (job_id INTEGER, consumer VARCHAR(30), taken TIMESTAMP(6), tries BYTEINT DEFAULT 0)
UNIQUE PRIMARY INDEX (job_id);

/* Producers: a row's QITS is the time of its INSERT unless given. */
INSERT INTO job_queue (job_id, payload, producer) VALUES (1, 'first', 'p1');
INS job_queue (CURRENT_TIMESTAMP(6), 2, 'second', 'p2');
INSERT INTO job_queue VALUES (TIMESTAMP '2024-01-01 00:00:00', 3, 'third', 'p3');

-- Teradata session mode: each request is its own implicit transaction.
SELECT AND CONSUME TOP 1 * FROM job_queue;
SEL AND CONSUME TOP 1 job_id, payload, USER, CURRENT_TIMESTAMP FROM job_queue;

-- An explicit transaction: the consume and its action commit together.
BT;
LOCKING ROW FOR WRITE SELECT AND CONSUME TOP 1 job_id FROM job_queue;
INSERT INTO job_log (job_id, consumer, taken) VALUES (2, USER, CURRENT_TIMESTAMP);
ET;

-- Move the head of the queue into a table (a table-level WRITE lock on job_log).
LOCKING TABLE job_log FOR WRITE NOWAIT INSERT INTO job_log (job_id) SELECT AND CONSUME TOP 1 job_id FROM job_queue;

-- One multi-statement request: both statements on the same line.
SELECT AND CONSUME TOP 1 * FROM job_queue; UPDATE job_log SET tries = tries + 1 WHERE job_id = 1;

-- Peek without consuming, then exception handling on the queue table itself.
LOCKING job_queue FOR ACCESS
SEL TOP 5 qits, job_id FROM job_queue ORDER BY qits;
UPD job_queue SET payload = 'retry' WHERE job_id MOD 2 = 0;
DEL FROM job_queue WHERE job_id > 100;
DELETE FROM job_log ALL;
MERGE INTO job_log AS l USING job_queue AS q ON l.job_id = q.job_id
WHEN MATCHED THEN UPDATE SET consumer = 'merged'
WHEN NOT MATCHED THEN INSERT (job_id, consumer) VALUES (q.job_id, 'new');

-- ANSI session mode: the transaction lasts until COMMIT or ROLLBACK.
SELECT AND CONSUME TOP 1 * FROM job_queue;
ROLLBACK WORK;
SELECT AND CONSUME TOP 1 * FROM job_queue;
COMMIT WORK;
ABORT;
DROP TABLE job_log;
