-- Deterministic demo data (no random()): 20 categories, 10,000 products, 1,000 customers,
-- 5,000 orders, 15,000 order lines. Re-running on a fresh schema gives identical rows.
INSERT INTO inventory."Categories" ("CategoryName", "Description")
SELECT (ARRAY['Beverages','Condiments','Confections','Dairy','Grains','Meat','Produce','Seafood',
              'Bakery','Frozen','Snacks','Household','Garden','Tools','Toys','Books','Music','Sports',
              'Office','Outdoor'])[i],
       'Everything in ' || lower((ARRAY['Beverages','Condiments','Confections','Dairy','Grains','Meat',
              'Produce','Seafood','Bakery','Frozen','Snacks','Household','Garden','Tools','Toys','Books',
              'Music','Sports','Office','Outdoor'])[i])
FROM generate_series(1, 20) AS i;

INSERT INTO inventory."Products" ("Sku", "ProductName", "CategoryId", "UnitPrice", "UnitsInStock", "CreatedAt")
SELECT 'SKU-' || lpad(i::text, 5, '0'),
       (ARRAY['Red','Blue','Green','Black','White','Silver','Golden','Tiny','Large','Classic'])[i % 10 + 1]
         || ' ' ||
       (ARRAY['Widget','Gadget','Gizmo','Bolt','Lamp','Kettle','Chair','Brush','Mug','Crate'])[(i / 10) % 10 + 1]
         || ' ' || i,
       (i % 20) + 1,
       round(((i * 7919) % 50000) / 100.0 + 0.99, 2),
       (i * 31) % 500,
       timestamptz '2024-01-01 00:00:00+00' + (i * interval '37 minutes')
FROM generate_series(1, 10000) AS i;

INSERT INTO sales."Customers" ("CustomerName", "Email", "Country")
SELECT (ARRAY['Ada','Ben','Cleo','Dev','Eva','Finn','Gus','Hana','Ivo','Jade'])[i % 10 + 1] || ' '
         || (ARRAY['Smith','Jansen','Garcia','Müller','Rossi','Kowalski','Dubois','Silva','Berg','O''Brien'])[(i / 10) % 10 + 1]
         || ' ' || i,
       'customer' || i || '@example.com',
       (ARRAY['NL','DE','BE','FR','UK','US','ES','IT'])[i % 8 + 1]
FROM generate_series(1, 1000) AS i;

INSERT INTO sales."Orders" ("CustomerId", "OrderDate", "Status")
SELECT (i * 17) % 1000 + 1,
       date '2024-01-01' + (i % 700),
       (ARRAY['New','Paid','Shipped','Cancelled'])[i % 4 + 1]
FROM generate_series(1, 5000) AS i;

INSERT INTO sales."OrderLines" ("OrderId", "ProductId", "Quantity", "UnitPrice")
SELECT o, p, q, pr."UnitPrice"
FROM (
  SELECT (i - 1) / 3 + 1 AS o, (i * 4099) % 10000 + 1 AS p, i % 5 + 1 AS q
  FROM generate_series(1, 15000) AS i
) AS l
JOIN inventory."Products" pr ON pr."ProductId" = l.p;

UPDATE sales."Orders" o
SET "TotalAmount" = s.total
FROM (SELECT "OrderId", sum("Quantity" * "UnitPrice") AS total FROM sales."OrderLines" GROUP BY "OrderId") AS s
WHERE s."OrderId" = o."OrderId";

INSERT INTO inventory."Warehouses" ("Code", "WarehouseName", "City", "Capacity", "ContactCustomerId", "Notes")
VALUES ('NL-001', 'Rotterdam Port', 'Rotterdam', 12000, 1, 'Dock 4'),
       ('DE-001', 'Hamburg North', 'Hamburg', 8000, 2, NULL),
       ('BE-001', 'Antwerp Central', 'Antwerp', 5000, NULL, 'Cold storage');

ANALYZE;
