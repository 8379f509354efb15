CREATE TABLE dbo.WysylkaDokumentu (
    Id         int IDENTITY(1,1) PRIMARY KEY,
    DokumentId int         NOT NULL,
    Status     varchar(20) NOT NULL,
    ZlecenieId int         NULL
);
CREATE UNIQUE INDEX UX_WysylkaDokumentu_WToku
    ON dbo.WysylkaDokumentu (DokumentId) WHERE Status = 'W_TOKU';
CREATE TABLE dbo.SystemZewnetrzny (
    ZlecenieId int IDENTITY(1000,1) PRIMARY KEY,
    DokumentId int NOT NULL
);
