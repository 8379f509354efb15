-- Q1: the task table starts empty; scenarios insert their own rows.
SET NOCOUNT ON;
IF OBJECT_ID(N'dbo.claim') IS NOT NULL DROP TABLE dbo.claim;
DROP TABLE IF EXISTS dbo.task;
GO
CREATE TABLE dbo.task (
    id        int IDENTITY(1,1) NOT NULL PRIMARY KEY,
    name      nvarchar(50)  NOT NULL,
    rank      tinyint       NOT NULL,          -- 3 high, 2 normal, 1 low
    active    bit           NOT NULL DEFAULT 1,
    status    varchar(20)   NOT NULL DEFAULT 'new',
    owner     varchar(30)   NULL,
    activated datetime2(3)  NOT NULL DEFAULT SYSDATETIME(),
    taken     datetime2(3)  NULL
);
CREATE INDEX ix_task_queue ON dbo.task (rank DESC, activated, id)
    WHERE active = 1 AND status = 'new';
CREATE TABLE dbo.claim (
    id      int IDENTITY(1,1) PRIMARY KEY,
    process varchar(10) NOT NULL,
    task_id int         NOT NULL,
    at      datetime2(3) NOT NULL DEFAULT SYSDATETIME()
);
GO
/* Q2: claim the next task in one statement. /* Nested comments are T-SQL. */ */
CREATE OR ALTER PROCEDURE dbo.next_task @operator varchar(30)
AS
BEGIN
    SET NOCOUNT ON;
    WITH next AS (
        SELECT TOP (1) id, name, rank, status, owner, taken
        FROM dbo.task WITH (UPDLOCK, READPAST, ROWLOCK)
        WHERE active = 1 AND status = 'new'
        ORDER BY rank DESC, activated, id
    )
    UPDATE next
    SET status = 'in_progress', owner = @operator, taken = SYSDATETIME()
    OUTPUT inserted.id, inserted.name, inserted.rank, inserted.owner;
END
GO
DECLARE @i int = 1;
WHILE @i <= 500
BEGIN
    INSERT INTO dbo.task (name, rank) VALUES (CONCAT(N'task ', @i), 3 - @i % 3);
    SET @i += 1;
END;
