CREATE OR ALTER PROCEDURE dbo.nastepne_zadanie_przyklad @operator varchar(30)
AS
BEGIN
    SET NOCOUNT ON;
    WITH nastepne AS (
        SELECT TOP (1) id, nazwa, ranga, status, wlasciciel, przejeto
        FROM dbo.zadanie_przyklad WITH (UPDLOCK, READPAST, ROWLOCK)
        WHERE aktywne = 1 AND status = 'nowe'
        ORDER BY ranga DESC, aktywowano, id
    )
    UPDATE nastepne
    SET status = 'w_toku', wlasciciel = @operator, przejeto = SYSDATETIME()
    OUTPUT inserted.id, inserted.nazwa, inserted.ranga, inserted.wlasciciel;
END
