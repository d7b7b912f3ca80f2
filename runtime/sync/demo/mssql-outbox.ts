/**
 * The second SQL Server example of docs/sync.md, for servers without change tracking (Babelfish
 * for PostgreSQL, which the tests run it on) or where change tracking is not wanted: a trigger
 * writes each insert/update/delete of inventory.Products to an outbox table, and the procedure
 * sync.ProductOutboxChanges @Json numbers the committed, not yet numbered changes (READPAST skips
 * rows of transactions still running, which stay invisible to the numbering anyway where reads
 * are versioned) under an application lock, then returns those after fromVersion in the procedure
 * contract's shape, at most 5,000 per call. The row values are read when exported (like change
 * tracking), so a deleted product's earlier changes carry only its key.
 * On SQL Server a table with a trigger refuses `OUTPUT` without `INTO`: Table-mode writes on
 * inventory.Products then need a procedure endpoint (docs/sql.md). One batch per array item.
 */
export const MSSQL_OUTBOX_SQL: readonly string[] = [
  `IF SCHEMA_ID('sync') IS NULL EXEC('CREATE SCHEMA sync')`,
  `IF OBJECT_ID('sync.ProductOutbox') IS NULL
   BEGIN
     CREATE TABLE sync.ProductOutbox (
       ChangeId  bigint IDENTITY(1,1) PRIMARY KEY,
       Operation char(1) NOT NULL,
       ProductId int NOT NULL,
       ChangedAt datetime2(3) NOT NULL DEFAULT SYSUTCDATETIME(),
       Version   bigint NULL
     );
     CREATE INDEX IX_ProductOutbox_Version ON sync.ProductOutbox (Version);
   END`,
  `DROP TRIGGER IF EXISTS inventory.ProductsOutbox`,
  `CREATE TRIGGER inventory.ProductsOutbox ON inventory.Products AFTER INSERT, UPDATE, DELETE AS
   BEGIN
     SET NOCOUNT ON;
     INSERT INTO sync.ProductOutbox (Operation, ProductId)
     SELECT CASE WHEN d.ProductId IS NULL THEN 'I' ELSE 'U' END, i.ProductId
       FROM inserted i LEFT JOIN deleted d ON d.ProductId = i.ProductId;
     INSERT INTO sync.ProductOutbox (Operation, ProductId)
     SELECT 'D', d.ProductId FROM deleted d
      WHERE NOT EXISTS (SELECT 1 FROM inserted i WHERE i.ProductId = d.ProductId);
   END`,
  `DROP PROCEDURE IF EXISTS sync.ProductOutboxChanges`,
  `CREATE PROCEDURE sync.ProductOutboxChanges @Json nvarchar(max) AS
   BEGIN
     SET NOCOUNT ON;
     SET XACT_ABORT ON;
     DECLARE @fromVersion bigint = ISNULL(TRY_CAST(JSON_VALUE(@Json, '$.fromVersion') AS bigint), 0);
     DECLARE @top bigint;
     BEGIN TRAN;
     EXEC sp_getapplock @Resource = 'sync.ProductOutbox', @LockMode = 'Exclusive', @LockOwner = 'Transaction';
     SELECT @top = ISNULL(MAX(Version), 0) FROM sync.ProductOutbox;
     UPDATE o SET Version = @top + n.rn
       FROM sync.ProductOutbox AS o
       JOIN (SELECT ChangeId, ROW_NUMBER() OVER (ORDER BY ChangeId) AS rn
               FROM sync.ProductOutbox WITH (READPAST)
              WHERE Version IS NULL) AS n ON n.ChangeId = o.ChangeId;
     COMMIT;
     DECLARE @last bigint = (SELECT MAX(Version) FROM (SELECT TOP 5000 Version FROM sync.ProductOutbox
                                                       WHERE Version > @fromVersion ORDER BY Version) AS page);
     -- the document is put together as text: Babelfish's FOR JSON embeds JSON_QUERY(...) as a string
     SELECT CONCAT('{"Metadata":{"Sync":{"Version":', ISNULL(@last, @fromVersion), ',"Type":"Diff","ReasonCode":0}},"Data":',
                   ISNULL((SELECT TOP 5000 o.Operation AS [$operation], o.Version AS [$version], o.ProductId, o.ChangedAt,
                                  p.Sku, p.ProductName, p.CategoryId, p.UnitPrice, p.UnitsInStock, p.CreatedAt
                             FROM sync.ProductOutbox o
                             LEFT JOIN inventory.Products p ON p.ProductId = o.ProductId AND o.Operation <> 'D'
                            WHERE o.Version > @fromVersion
                            ORDER BY o.Version
                            FOR JSON PATH, INCLUDE_NULL_VALUES), '[]'),
                   '}') AS [Document];
   END`,
];
