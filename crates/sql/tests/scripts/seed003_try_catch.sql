BEGIN TRY EXEC dbo.WyslijDokument @DokumentId = 4, @Awaria = 1; END TRY
BEGIN CATCH SELECT ERROR_NUMBER() AS Blad; END CATCH;
SELECT APPLOCK_MODE('public', N'Wysylka_4', 'Session') AS TrybBlokady;
