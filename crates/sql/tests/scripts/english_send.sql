CREATE TABLE dbo.send (
    Id         int IDENTITY(1,1) PRIMARY KEY,
    DocumentId int         NOT NULL,
    Status     varchar(20) NOT NULL,
    OrderId    int         NULL
);
CREATE UNIQUE INDEX UX_send_in_progress
    ON dbo.send (DocumentId) WHERE Status = 'IN_PROGRESS';
CREATE TABLE dbo.external_system (
    OrderId    int IDENTITY(1000,1) PRIMARY KEY,
    DocumentId int NOT NULL
);
GO
CREATE PROCEDURE dbo.SendDocument @DocumentId int, @Fail bit = 0
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @resource nvarchar(255) = N'Send_' + CAST(@DocumentId AS nvarchar(20)),
            @lock int, @status varchar(20), @order int;
    EXEC @lock = sp_getapplock @Resource = @resource, @LockMode = 'Exclusive',
         @LockOwner = 'Session', @LockTimeout = 0;
    IF @lock < 0 BEGIN SELECT 3 AS Code, 'BUSY' AS EntryState, CAST(NULL AS int) AS OrderId; RETURN; END;
    BEGIN TRY
        SELECT TOP (1) @status = Status, @order = OrderId
        FROM dbo.send
        WHERE DocumentId = @DocumentId AND Status IN ('DONE', 'IN_PROGRESS')
        ORDER BY CASE Status WHEN 'DONE' THEN 0 ELSE 1 END, Id DESC;
        IF @status IS NULL
        BEGIN
            WAITFOR DELAY '00:00:05';
            IF @Fail = 1 THROW 50001, N'Call failed', 1;
            INSERT dbo.external_system (DocumentId) VALUES (@DocumentId);
            SET @order = SCOPE_IDENTITY();
            INSERT dbo.send (DocumentId, Status, OrderId) VALUES (@DocumentId, 'IN_PROGRESS', @order);
        END;
        SELECT CASE @status WHEN 'DONE' THEN 2 ELSE 1 END AS Code,
               ISNULL(@status, 'NEW') AS EntryState, @order AS OrderId;
    END TRY
    BEGIN CATCH
        EXEC sp_releaseapplock @Resource = @resource, @LockOwner = 'Session';
        THROW;
    END CATCH;
    EXEC sp_releaseapplock @resource, 'Session';
END;
GO
BEGIN TRY EXEC dbo.SendDocument @DocumentId = 4, @Fail = 1; END TRY
BEGIN CATCH SELECT ERROR_NUMBER() AS Error, ERROR_MESSAGE() AS Message; END CATCH;
SELECT APPLOCK_MODE('public', N'Send_4', 'Session') AS LockMode;
SELECT DocumentId,
       (SELECT COUNT(*) FROM dbo.external_system s WHERE s.DocumentId = d.DocumentId) AS ExternalCalls,
       (SELECT COUNT(*) FROM dbo.send w WHERE w.DocumentId = d.DocumentId AND w.Status = 'IN_PROGRESS') AS InProgress
FROM (VALUES (2), (3)) AS d(DocumentId);
