SELECT DokumentId,
       (SELECT COUNT(*) FROM dbo.SystemZewnetrzny s WHERE s.DokumentId = d.DokumentId) AS WywolaniaZewnetrzne,
       (SELECT COUNT(*) FROM dbo.WysylkaDokumentu w WHERE w.DokumentId = d.DokumentId AND w.Status = 'W_TOKU') AS WpisyWToku
FROM (VALUES (2), (3)) AS d(DokumentId);
