CREATE PROCEDURE dbo.WyslijBezBlokady @DokumentId int
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @status varchar(20), @zlecenie int;
    SELECT TOP (1) @status = Status, @zlecenie = ZlecenieId
    FROM dbo.WysylkaDokumentu
    WHERE DokumentId = @DokumentId AND Status IN ('GOTOWE', 'W_TOKU')
    ORDER BY CASE Status WHEN 'GOTOWE' THEN 0 ELSE 1 END, Id DESC;
    IF @status IS NULL
    BEGIN
        WAITFOR DELAY '00:00:05';
        INSERT dbo.SystemZewnetrzny (DokumentId) VALUES (@DokumentId);
        SET @zlecenie = SCOPE_IDENTITY();
        INSERT dbo.WysylkaDokumentu (DokumentId, Status, ZlecenieId) VALUES (@DokumentId, 'W_TOKU', @zlecenie);
    END;
    SELECT CASE @status WHEN 'GOTOWE' THEN 2 ELSE 1 END AS Kod,
           ISNULL(@status, 'NOWY') AS StanWpisu, @zlecenie AS ZlecenieId;
END;
