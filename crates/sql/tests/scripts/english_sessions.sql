-- Q3: the holder keeps its claimed task for 4 s.
SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
SET LOCK_TIMEOUT 5000;
SET DEADLOCK_PRIORITY LOW;
SET XACT_ABORT ON;
BEGIN TRAN;
EXEC dbo.next_task @operator = 'A';
WAITFOR DELAY '00:00:04';
COMMIT;
GO
-- Q5: read, then a conditional update; retry when another session was first.
DECLARE @id int, @retries int = 0;
WHILE 1 = 1
BEGIN
    SET @id = NULL;
    SELECT TOP (1) @id = id FROM dbo.task
    WHERE active = 1 AND status = 'new' ORDER BY rank DESC, activated, id;
    IF @id IS NULL BREAK;
    WAITFOR DELAY '00:00:00.020';
    UPDATE dbo.task SET status = 'in_progress', owner = 'p1', taken = SYSDATETIME()
    WHERE id = @id AND status = 'new';
    IF @@ROWCOUNT = 0
    BEGIN
        SET @retries = @retries + 1;
        CONTINUE;
    END
    INSERT dbo.claim (process, task_id) VALUES ('p1', @id);
END
SELECT @retries AS retries;
GO
-- Q10: isolation levels and row versioning.
ALTER DATABASE CURRENT SET READ_COMMITTED_SNAPSHOT ON WITH ROLLBACK IMMEDIATE;
ALTER DATABASE CURRENT SET ALLOW_SNAPSHOT_ISOLATION ON;
SET TRANSACTION ISOLATION LEVEL SNAPSHOT;
BEGIN TRANSACTION claim_one;
EXEC dbo.next_task 'B';
ROLLBACK TRANSACTION claim_one;
GO
-- Q13: a trigger on the task table; OUTPUT needs INTO.
CREATE TRIGGER dbo.task_audit ON dbo.task AFTER UPDATE
AS
BEGIN
    SET NOCOUNT ON;
    INSERT INTO dbo.claim (process, task_id)
    SELECT i.owner, i.id FROM inserted AS i JOIN deleted AS d ON d.id = i.id
    WHERE d.status <> i.status;
END
GO
DECLARE @claimed TABLE (id int NOT NULL PRIMARY KEY, name nvarchar(50));
WITH next AS (
    SELECT TOP (1) id, name, status, owner
    FROM dbo.task WITH (UPDLOCK, READPAST, ROWLOCK)
    WHERE active = 1 AND status = 'new'
    ORDER BY rank DESC, activated, id
)
UPDATE next SET status = 'in_progress', owner = 'C'
OUTPUT inserted.id, inserted.name INTO @claimed (id, name);
SELECT id, name FROM @claimed;
GO
-- Checks over the final state.
SELECT COUNT(*) - COUNT(DISTINCT task_id) AS duplicates FROM dbo.claim;
SELECT process, COUNT(*) AS claims FROM dbo.claim GROUP BY process HAVING COUNT(*) > 0 ORDER BY process;
SELECT t.id, t.rank, c.process
FROM dbo.task t
LEFT JOIN dbo.claim c ON c.task_id = t.id
WHERE t.status <> 'new' AND t.taken BETWEEN DATEADD(second, -10, SYSDATETIME()) AND SYSDATETIME()
ORDER BY t.rank DESC, t.id;
