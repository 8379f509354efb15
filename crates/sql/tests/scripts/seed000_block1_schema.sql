-- tabela zadań, indeks pod kolejność, dziennik przejęć oraz wariant testowy bez READPAST.
SET NOCOUNT ON;
IF OBJECT_ID(N'dbo.przejecie_przyklad') IS NOT NULL DROP TABLE dbo.przejecie_przyklad;
IF OBJECT_ID(N'dbo.zadanie_przyklad') IS NOT NULL DROP TABLE dbo.zadanie_przyklad;
GO
CREATE TABLE dbo.zadanie_przyklad (
    id         int IDENTITY(1,1) NOT NULL PRIMARY KEY,
    nazwa      nvarchar(50)  NOT NULL,
    ranga      tinyint       NOT NULL,                      -- 3 wysoki, 2 normalny, 1 niski
    aktywne    bit           NOT NULL DEFAULT 1,
    status     varchar(10)   NOT NULL DEFAULT 'nowe',
    wlasciciel varchar(30)   NULL,
    aktywowano datetime2(3)  NOT NULL DEFAULT SYSDATETIME(),
    przejeto   datetime2(3)  NULL
);
CREATE INDEX ix_zadanie_kolejka ON dbo.zadanie_przyklad (ranga DESC, aktywowano, id)
    WHERE aktywne = 1 AND status = 'nowe';
CREATE TABLE dbo.przejecie_przyklad (
    id         int IDENTITY(1,1) PRIMARY KEY,
    proces     varchar(10) NOT NULL,
    zadanie_id int         NOT NULL,
    kiedy      datetime2(3) NOT NULL DEFAULT SYSDATETIME()
);
GO
-- wariant testowy: ta sama instrukcja, ale bez READPAST (druga sesja czeka na blokadę)
CREATE OR ALTER PROCEDURE dbo.nastepne_zadanie_bez_readpast_przyklad @operator varchar(30)
AS
BEGIN
    SET NOCOUNT ON;
    WITH nastepne AS (
        SELECT TOP (1) id, nazwa, ranga, status, wlasciciel, przejeto
        FROM dbo.zadanie_przyklad WITH (UPDLOCK, ROWLOCK)
        WHERE aktywne = 1 AND status = 'nowe'
        ORDER BY ranga DESC, aktywowano, id
    )
    UPDATE nastepne
    SET status = 'w_toku', wlasciciel = @operator, przejeto = SYSDATETIME()
    OUTPUT inserted.id, inserted.nazwa, inserted.ranga, inserted.wlasciciel;
END
GO
