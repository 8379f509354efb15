EXEC dbo.WyslijDokument @DokumentId = 1;
EXEC dbo.WyslijDokument @DokumentId = 1;
UPDATE dbo.WysylkaDokumentu SET Status = 'GOTOWE' WHERE ZlecenieId = 1000 AND Status = 'W_TOKU';
EXEC dbo.WyslijDokument @DokumentId = 1;
