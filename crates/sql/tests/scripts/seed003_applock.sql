CREATE PROCEDURE dbo.WyslijDokument @DokumentId int, @Awaria bit = 0
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @zasob nvarchar(255) = N'Wysylka_' + CAST(@DokumentId AS nvarchar(20)),
            @blokada int, @status varchar(20), @zlecenie int;
    EXEC @blokada = sp_getapplock @zasob, 'Exclusive', 'Session', 0;
    IF @blokada < 0 BEGIN SELECT 3 AS Kod, 'ZAJETE' AS StanWpisu, CAST(NULL AS int) AS ZlecenieId; RETURN; END;
    BEGIN TRY
        SELECT TOP (1) @status = Status, @zlecenie = ZlecenieId
        FROM dbo.WysylkaDokumentu
        WHERE DokumentId = @DokumentId AND Status IN ('GOTOWE', 'W_TOKU')
        ORDER BY CASE Status WHEN 'GOTOWE' THEN 0 ELSE 1 END, Id DESC;
        IF @status IS NULL
        BEGIN
            WAITFOR DELAY '00:00:05';
            IF @Awaria = 1 THROW 50001, N'Awaria wywolania', 1;
            INSERT dbo.SystemZewnetrzny (DokumentId) VALUES (@DokumentId);
            SET @zlecenie = SCOPE_IDENTITY();
            INSERT dbo.WysylkaDokumentu (DokumentId, Status, ZlecenieId) VALUES (@DokumentId, 'W_TOKU', @zlecenie);
        END;
        SELECT CASE @status WHEN 'GOTOWE' THEN 2 ELSE 1 END AS Kod,
               ISNULL(@status, 'NOWY') AS StanWpisu, @zlecenie AS ZlecenieId;
    END TRY
    BEGIN CATCH
        EXEC sp_releaseapplock @zasob, 'Session';
        THROW;
    END CATCH;
    EXEC sp_releaseapplock @zasob, 'Session';
END;
