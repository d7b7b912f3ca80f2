/**
 * The SQL Server example of docs/sync.md: change tracking on inventory.Products and the procedure
 * sync.ProductChanges @Json, which answers the procedure contract. First call (fromVersion 0) or a
 * version older than the retention: a Full export of the current rows (no $version; the stored
 * version becomes Metadata.Sync.Version). Later calls: the changes after fromVersion from
 * CHANGETABLE, deletes included, in SYS_CHANGE_VERSION order. Snapshot isolation keeps the
 * version and the rows consistent. One batch per array item (run them one by one).
 */
export const MSSQL_CHANGE_TRACKING_SQL: readonly string[] = [
  `IF NOT EXISTS (SELECT 1 FROM sys.change_tracking_databases WHERE database_id = DB_ID())
     ALTER DATABASE CURRENT SET CHANGE_TRACKING = ON (CHANGE_RETENTION = 7 DAYS, AUTO_CLEANUP = ON)`,
  `ALTER DATABASE CURRENT SET ALLOW_SNAPSHOT_ISOLATION ON`,
  `IF NOT EXISTS (SELECT 1 FROM sys.change_tracking_tables WHERE object_id = OBJECT_ID('inventory.Products'))
     ALTER TABLE inventory.Products ENABLE CHANGE_TRACKING`,
  `IF SCHEMA_ID('sync') IS NULL EXEC('CREATE SCHEMA sync')`,
  `CREATE OR ALTER PROCEDURE sync.ProductChanges @Json nvarchar(max) AS
   BEGIN
     SET NOCOUNT ON;
     SET XACT_ABORT ON;
     SET TRANSACTION ISOLATION LEVEL SNAPSHOT;
     DECLARE @fromVersion bigint = ISNULL(TRY_CAST(JSON_VALUE(@Json, '$.fromVersion') AS bigint), 0);
     BEGIN TRAN;
     DECLARE @current bigint = CHANGE_TRACKING_CURRENT_VERSION();
     DECLARE @minValid bigint = CHANGE_TRACKING_MIN_VALID_VERSION(OBJECT_ID('inventory.Products'));
     DECLARE @reason int = CASE WHEN @fromVersion = 0 THEN 0 WHEN @fromVersion < @minValid THEN 1 ELSE NULL END;
     IF @reason IS NOT NULL
       SELECT ISNULL(@current, 0) AS [Metadata.Sync.Version], 'Full' AS [Metadata.Sync.Type], @reason AS [Metadata.Sync.ReasonCode],
              JSON_QUERY(ISNULL((SELECT 'I' AS [$operation], p.ProductId, p.Sku, p.ProductName, p.CategoryId, p.UnitPrice, p.UnitsInStock, p.CreatedAt
                                   FROM inventory.Products p ORDER BY p.ProductId FOR JSON PATH, INCLUDE_NULL_VALUES), '[]')) AS [Data]
       FOR JSON PATH, WITHOUT_ARRAY_WRAPPER;
     ELSE
       SELECT @current AS [Metadata.Sync.Version], 'Diff' AS [Metadata.Sync.Type], 0 AS [Metadata.Sync.ReasonCode],
              JSON_QUERY(ISNULL((SELECT ct.SYS_CHANGE_OPERATION AS [$operation], ct.SYS_CHANGE_VERSION AS [$version], ct.ProductId,
                                        p.Sku, p.ProductName, p.CategoryId, p.UnitPrice, p.UnitsInStock, p.CreatedAt
                                   FROM CHANGETABLE(CHANGES inventory.Products, @fromVersion) AS ct
                                   LEFT JOIN inventory.Products p ON p.ProductId = ct.ProductId
                                  ORDER BY ct.SYS_CHANGE_VERSION, ct.ProductId
                                  FOR JSON PATH, INCLUDE_NULL_VALUES), '[]')) AS [Data]
       FOR JSON PATH, WITHOUT_ARRAY_WRAPPER;
     COMMIT;
   END`,
];
