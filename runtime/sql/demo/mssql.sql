-- Wharf demo database for SQL Server (2017+), the T-SQL twin of schema.sql + seed.sql: same
-- objects, same deterministic rows. UNTESTED on this project's CI (no SQL Server there); the
-- MSSQL_URL tests expect a database prepared with: sqlcmd -S <server> -d <db> -i mssql.sql
SET NOCOUNT ON;
GO
CREATE SCHEMA inventory;
GO
CREATE SCHEMA sales;
GO
CREATE TABLE inventory.Categories (
  CategoryId   int IDENTITY(1,1) PRIMARY KEY,
  CategoryName nvarchar(100) NOT NULL,
  Description  nvarchar(400) NULL
);
CREATE TABLE inventory.Products (
  ProductId    int IDENTITY(1,1) PRIMARY KEY,
  Sku          nvarchar(20) NOT NULL UNIQUE,
  ProductName  nvarchar(200) NOT NULL,
  CategoryId   int NOT NULL REFERENCES inventory.Categories (CategoryId),
  UnitPrice    decimal(10, 2) NOT NULL,
  UnitsInStock int NOT NULL,
  CreatedAt    datetimeoffset(3) NOT NULL
);
CREATE INDEX IX_Products_CategoryId ON inventory.Products (CategoryId);
CREATE INDEX IX_Products_UnitPrice ON inventory.Products (UnitPrice);
CREATE TABLE sales.Customers (
  CustomerId   int IDENTITY(1,1) PRIMARY KEY,
  CustomerName nvarchar(200) NOT NULL,
  Email        nvarchar(200) NOT NULL,
  Country      nchar(2) NOT NULL
);
CREATE TABLE sales.Orders (
  OrderId     int IDENTITY(1,1) PRIMARY KEY,
  CustomerId  int NOT NULL REFERENCES sales.Customers (CustomerId),
  OrderDate   date NOT NULL,
  Status      nvarchar(20) NOT NULL,
  TotalAmount decimal(12, 2) NOT NULL DEFAULT 0
);
CREATE INDEX IX_Orders_CustomerId ON sales.Orders (CustomerId);
CREATE TABLE sales.OrderLines (
  OrderLineId int IDENTITY(1,1) PRIMARY KEY,
  OrderId     int NOT NULL REFERENCES sales.Orders (OrderId) ON DELETE CASCADE,
  ProductId   int NOT NULL REFERENCES inventory.Products (ProductId),
  Quantity    int NOT NULL,
  UnitPrice   decimal(10, 2) NOT NULL
);
CREATE INDEX IX_OrderLines_OrderId ON sales.OrderLines (OrderId);
CREATE TABLE inventory.Warehouses (
  WarehouseId       int IDENTITY(1,1) PRIMARY KEY,
  Code              varchar(12) NOT NULL CONSTRAINT UQ_Warehouses_Code UNIQUE,
  WarehouseName     nvarchar(200) NOT NULL,
  City              nvarchar(40) NULL,
  Capacity          int NULL CONSTRAINT CK_Warehouses_Capacity CHECK (Capacity >= 0),
  ContactCustomerId int NULL REFERENCES sales.Customers (CustomerId),
  IsActive          bit NOT NULL DEFAULT 1,
  Notes             nvarchar(max) NULL
);
GO
CREATE SCHEMA integrations;
GO
CREATE TABLE integrations.WebhookEvents (
  Id         int IDENTITY(1,1) PRIMARY KEY,
  WebhookId  nvarchar(255) NOT NULL,
  Payload    nvarchar(max) NOT NULL,
  ReceivedAt datetime2(3) NOT NULL
);
GO
CREATE VIEW sales.OrderSummary AS
SELECT o.OrderId, c.CustomerName, o.OrderDate,
       (SELECT COUNT(*) FROM sales.OrderLines l WHERE l.OrderId = o.OrderId) AS LineCount,
       o.TotalAmount
FROM sales.Orders o
JOIN sales.Customers c ON c.CustomerId = o.CustomerId;
GO
CREATE FUNCTION inventory.ProductsByCategory (@CategoryId int, @MinPrice decimal(10, 2) = NULL)
RETURNS TABLE
AS RETURN
  SELECT p.ProductId, p.Sku, p.ProductName, p.UnitPrice
  FROM inventory.Products p
  WHERE p.CategoryId = @CategoryId AND (@MinPrice IS NULL OR p.UnitPrice >= @MinPrice);
GO
CREATE PROCEDURE sales.SaveOrder
  @Method nvarchar(10), @OrderId int = NULL OUTPUT, @CustomerId int = NULL, @OrderDate date = NULL,
  @Status nvarchar(20) = NULL, @TotalAmount decimal(12, 2) = NULL
AS
BEGIN
  SET NOCOUNT ON;
  DECLARE @rows int = 1;
  IF UPPER(@Method) = 'INSERT'
  BEGIN
    INSERT INTO sales.Orders (CustomerId, OrderDate, Status, TotalAmount)
    VALUES (@CustomerId, COALESCE(@OrderDate, CAST(SYSUTCDATETIME() AS date)), COALESCE(@Status, 'New'), COALESCE(@TotalAmount, 0));
    SET @OrderId = SCOPE_IDENTITY();
  END
  ELSE IF UPPER(@Method) = 'UPDATE'
  BEGIN
    UPDATE sales.Orders SET CustomerId = @CustomerId, OrderDate = @OrderDate, Status = @Status, TotalAmount = @TotalAmount WHERE OrderId = @OrderId;
    SET @rows = @@ROWCOUNT;
  END
  ELSE IF UPPER(@Method) = 'PATCH'
  BEGIN
    UPDATE sales.Orders SET CustomerId = COALESCE(@CustomerId, CustomerId), OrderDate = COALESCE(@OrderDate, OrderDate),
      Status = COALESCE(@Status, Status), TotalAmount = COALESCE(@TotalAmount, TotalAmount) WHERE OrderId = @OrderId;
    SET @rows = @@ROWCOUNT;
  END
  ELSE IF UPPER(@Method) = 'DELETE'
  BEGIN
    DELETE FROM sales.Orders WHERE OrderId = @OrderId;
    SET @rows = @@ROWCOUNT;
  END
  ELSE
    THROW 50000, 'Unknown method', 1;
  IF @rows = 0
  BEGIN
    DECLARE @message nvarchar(200) = CONCAT('Order ', @OrderId, ' does not exist');
    THROW 50000, @message, 1;
  END
  SELECT @OrderId AS OrderId;
END
GO
-- Seed: a numbers table 1..15000, then the same formulas as seed.sql.
WITH d AS (SELECT n FROM (VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9)) v(n)),
     nums AS (SELECT a.n + 10 * b.n + 100 * c.n + 1000 * e.n + 10000 * f.n + 1 AS i FROM d a, d b, d c, d e, d f)
SELECT i INTO #n FROM nums WHERE i <= 15000;

INSERT INTO inventory.Categories (CategoryName, Description)
SELECT v.Name, 'Everything in ' + LOWER(v.Name)
FROM #n JOIN (VALUES (1,'Beverages'),(2,'Condiments'),(3,'Confections'),(4,'Dairy'),(5,'Grains'),(6,'Meat'),(7,'Produce'),
  (8,'Seafood'),(9,'Bakery'),(10,'Frozen'),(11,'Snacks'),(12,'Household'),(13,'Garden'),(14,'Tools'),(15,'Toys'),(16,'Books'),
  (17,'Music'),(18,'Sports'),(19,'Office'),(20,'Outdoor')) v(i, Name) ON v.i = #n.i
ORDER BY #n.i;

INSERT INTO inventory.Products (Sku, ProductName, CategoryId, UnitPrice, UnitsInStock, CreatedAt)
SELECT 'SKU-' + RIGHT('00000' + CAST(i AS varchar(5)), 5),
       CHOOSE(i % 10 + 1, 'Red','Blue','Green','Black','White','Silver','Golden','Tiny','Large','Classic') + ' ' +
       CHOOSE((i / 10) % 10 + 1, 'Widget','Gadget','Gizmo','Bolt','Lamp','Kettle','Chair','Brush','Mug','Crate') + ' ' + CAST(i AS varchar(5)),
       (i % 20) + 1,
       ROUND(((CAST(i AS bigint) * 7919) % 50000) / 100.0 + 0.99, 2),
       (i * 31) % 500,
       DATEADD(minute, 37 * i, CAST('2024-01-01T00:00:00+00:00' AS datetimeoffset(3)))
FROM #n WHERE i <= 10000 ORDER BY i;

INSERT INTO sales.Customers (CustomerName, Email, Country)
SELECT CHOOSE(i % 10 + 1, 'Ada','Ben','Cleo','Dev','Eva','Finn','Gus','Hana','Ivo','Jade') + ' ' +
       CHOOSE((i / 10) % 10 + 1, 'Smith','Jansen','Garcia',N'Müller','Rossi','Kowalski','Dubois','Silva','Berg','O''Brien') + ' ' + CAST(i AS varchar(5)),
       'customer' + CAST(i AS varchar(5)) + '@example.com',
       CHOOSE(i % 8 + 1, 'NL','DE','BE','FR','UK','US','ES','IT')
FROM #n WHERE i <= 1000 ORDER BY i;

INSERT INTO sales.Orders (CustomerId, OrderDate, Status)
SELECT (i * 17) % 1000 + 1, DATEADD(day, i % 700, CAST('2024-01-01' AS date)), CHOOSE(i % 4 + 1, 'New','Paid','Shipped','Cancelled')
FROM #n WHERE i <= 5000 ORDER BY i;

INSERT INTO sales.OrderLines (OrderId, ProductId, Quantity, UnitPrice)
SELECT (i - 1) / 3 + 1, (CAST(i AS bigint) * 4099) % 10000 + 1, i % 5 + 1, p.UnitPrice
FROM #n JOIN inventory.Products p ON p.ProductId = (CAST(#n.i AS bigint) * 4099) % 10000 + 1
ORDER BY i;

UPDATE o SET TotalAmount = s.Total
FROM sales.Orders o JOIN (SELECT OrderId, SUM(Quantity * UnitPrice) AS Total FROM sales.OrderLines GROUP BY OrderId) s ON s.OrderId = o.OrderId;
INSERT INTO inventory.Warehouses (Code, WarehouseName, City, Capacity, ContactCustomerId, Notes)
VALUES ('NL-001', 'Rotterdam Port', 'Rotterdam', 12000, 1, 'Dock 4'),
       ('DE-001', 'Hamburg North', 'Hamburg', 8000, 2, NULL),
       ('BE-001', 'Antwerp Central', 'Antwerp', 5000, NULL, 'Cold storage');
DROP TABLE #n;
GO
