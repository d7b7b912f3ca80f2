/**
 * The PostgreSQL example of docs/sync.md, used by `wharf sync --demo` (PGlite) and the tests
 * (real PostgreSQL): a trigger writes every insert/update/delete of inventory."Products" to an
 * outbox table; the function sync."ProductChanges"(jsonb) numbers the changes of finished
 * transactions (in commit-safe order: only transactions older than every running one, so a
 * slow transaction can never receive a lower version than one already exported) and returns
 * those after fromVersion in the procedure contract's shape, at most 5,000 per call, as json (built
 * with json_agg: a jsonb document cost PostgreSQL about twice the CPU per change, docs/sync.md#throughput).
 * One statement per array item (the drivers run one statement per call).
 */
export const POSTGRES_OUTBOX_SQL: readonly string[] = [
  `CREATE SCHEMA IF NOT EXISTS sync`,
  `CREATE TABLE IF NOT EXISTS sync."ProductOutbox" (
     "ChangeId"  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     "TxId"      xid8 NOT NULL DEFAULT pg_current_xact_id(),
     "Operation" char(1) NOT NULL,
     "ProductId" integer NOT NULL,
     "Row"       jsonb,
     "ChangedAt" timestamptz NOT NULL DEFAULT clock_timestamp(),
     "Version"   bigint UNIQUE
   )`,
  `CREATE INDEX IF NOT EXISTS "IX_ProductOutbox_Unnumbered" ON sync."ProductOutbox" ("TxId", "ChangeId") WHERE "Version" IS NULL`,
  `CREATE OR REPLACE FUNCTION sync.capture_product_change() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'DELETE' THEN
       INSERT INTO sync."ProductOutbox" ("Operation", "ProductId", "Row") VALUES ('D', OLD."ProductId", NULL);
       RETURN OLD;
     END IF;
     INSERT INTO sync."ProductOutbox" ("Operation", "ProductId", "Row") VALUES (left(TG_OP, 1), NEW."ProductId", to_jsonb(NEW));
     RETURN NEW;
   END $$`,
  `DROP TRIGGER IF EXISTS "ProductsOutbox" ON inventory."Products"`,
  `CREATE TRIGGER "ProductsOutbox" AFTER INSERT OR UPDATE OR DELETE ON inventory."Products"
     FOR EACH ROW EXECUTE FUNCTION sync.capture_product_change()`,
  `DROP FUNCTION IF EXISTS sync."ProductChanges"(jsonb)`,
  `CREATE FUNCTION sync."ProductChanges"(args jsonb) RETURNS json LANGUAGE plpgsql AS $$
   DECLARE
     from_version bigint := COALESCE((args->>'fromVersion')::bigint, 0);
     top bigint;
     page json;
     last bigint;
   BEGIN
     -- One numbering at a time; changes of transactions still running wait for a later call.
     PERFORM pg_advisory_xact_lock(hashtext('sync.ProductOutbox'));
     SELECT COALESCE(max("Version"), 0) INTO top FROM sync."ProductOutbox";
     UPDATE sync."ProductOutbox" o SET "Version" = top + n.rn
       FROM (SELECT "ChangeId", row_number() OVER (ORDER BY "TxId", "ChangeId") AS rn
               FROM sync."ProductOutbox"
              WHERE "Version" IS NULL AND "TxId" < pg_snapshot_xmin(pg_current_snapshot())) n
      WHERE o."ChangeId" = n."ChangeId";
     -- json_agg writes each record's text once; jsonb_agg would copy every record into one jsonb.
     SELECT json_agg(c ORDER BY v), max(v) INTO page, last FROM (
       SELECT "Version" AS v,
              jsonb_build_object('$operation', "Operation", '$version', "Version", 'ChangedAt', "ChangedAt")
              || COALESCE("Row", jsonb_build_object('ProductId', "ProductId")) AS c
         FROM sync."ProductOutbox"
        WHERE "Version" > from_version
        ORDER BY "Version"
        LIMIT 5000) p;
     RETURN json_build_object(
       'Metadata', json_build_object('Sync', json_build_object(
         'Version', COALESCE(last, from_version),
         'Type', 'Diff',
         'ReasonCode', 0)),
       'Data', COALESCE(page, '[]'::json));
   END $$`,
];

/** Records the current products as inserts, so a Full initial sync exports them too. */
export const POSTGRES_OUTBOX_BACKFILL_SQL = `INSERT INTO sync."ProductOutbox" ("Operation", "ProductId", "Row")
  SELECT 'I', p."ProductId", to_jsonb(p) FROM inventory."Products" p ORDER BY p."ProductId"`;
