-- A fragment of the test process's loop, which declares @id.
DECLARE @id int;
SELECT TOP (1) @id = id FROM dbo.zadanie_przyklad
WHERE aktywne = 1 AND status = 'nowe' ORDER BY ranga DESC, aktywowano, id;
IF @id IS NOT NULL
BEGIN
    WAITFOR DELAY '00:00:00.020';
    UPDATE dbo.zadanie_przyklad
    SET status = 'w_toku', wlasciciel = '$(proces)', przejeto = SYSDATETIME()
    WHERE id = @id;
END
