"""A table's revision, moved on by the database whenever the table's row or one of its seats
is written (``Table.revision``): triggers, so that no write can leave it behind, whichever way
it is made."""

from django.db import migrations, models

SQLITE = [
    # An update that does not move the revision on itself has it moved on: only a move's
    # writer sets it (one on from the revision it locked), and a writer that set it while
    # someone else's write had already moved it on is moved on past both.
    """CREATE TRIGGER games_table_revision AFTER UPDATE ON games_table
    FOR EACH ROW WHEN NEW.revision <= OLD.revision
    BEGIN UPDATE games_table SET revision = OLD.revision + 1 WHERE id = NEW.id; END""",
    """CREATE TRIGGER games_seat_revision_insert AFTER INSERT ON games_seat
    BEGIN UPDATE games_table SET revision = revision + 1 WHERE id = NEW.table_id; END""",
    """CREATE TRIGGER games_seat_revision_update AFTER UPDATE ON games_seat
    BEGIN UPDATE games_table SET revision = revision + 1
    WHERE id = NEW.table_id OR id = OLD.table_id; END""",
    """CREATE TRIGGER games_seat_revision_delete AFTER DELETE ON games_seat
    BEGIN UPDATE games_table SET revision = revision + 1 WHERE id = OLD.table_id; END""",
]
SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS games_table_revision",
    "DROP TRIGGER IF EXISTS games_seat_revision_insert",
    "DROP TRIGGER IF EXISTS games_seat_revision_update",
    "DROP TRIGGER IF EXISTS games_seat_revision_delete",
]
POSTGRESQL = [
    """CREATE OR REPLACE FUNCTION games_table_revision() RETURNS trigger AS $$
    BEGIN
        IF NEW.revision <= OLD.revision THEN
            NEW.revision := OLD.revision + 1;
        END IF;
        RETURN NEW;
    END $$ LANGUAGE plpgsql""",
    """CREATE TRIGGER games_table_revision BEFORE UPDATE ON games_table
    FOR EACH ROW EXECUTE FUNCTION games_table_revision()""",
    """CREATE OR REPLACE FUNCTION games_seat_revision() RETURNS trigger AS $$
    BEGIN
        IF TG_OP <> 'INSERT' THEN
            UPDATE games_table SET revision = revision + 1 WHERE id = OLD.table_id;
        END IF;
        IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.table_id <> OLD.table_id) THEN
            UPDATE games_table SET revision = revision + 1 WHERE id = NEW.table_id;
        END IF;
        RETURN NULL;
    END $$ LANGUAGE plpgsql""",
    """CREATE TRIGGER games_seat_revision AFTER INSERT OR UPDATE OR DELETE ON games_seat
    FOR EACH ROW EXECUTE FUNCTION games_seat_revision()""",
]
POSTGRESQL_DROP = [
    "DROP TRIGGER IF EXISTS games_seat_revision ON games_seat",
    "DROP FUNCTION IF EXISTS games_seat_revision()",
    "DROP TRIGGER IF EXISTS games_table_revision ON games_table",
    "DROP FUNCTION IF EXISTS games_table_revision()",
]
STATEMENTS = {"sqlite": (SQLITE, SQLITE_DROP), "postgresql": (POSTGRESQL, POSTGRESQL_DROP)}


def _run(apps, schema_editor, which: int) -> None:
    vendor = schema_editor.connection.vendor
    if vendor not in STATEMENTS:
        raise RuntimeError(f"no revision triggers written for {vendor}")
    for sql in STATEMENTS[vendor][which]:
        schema_editor.execute(sql)


def create(apps, schema_editor):
    _run(apps, schema_editor, 0)


def drop(apps, schema_editor):
    _run(apps, schema_editor, 1)


class Migration(migrations.Migration):
    dependencies = [("games", "0011_deal_of_the_day")]

    operations = [
        migrations.AddField(
            model_name="table",
            name="revision",
            field=models.PositiveBigIntegerField(default=0, editable=False),
        ),
        migrations.RunPython(create, drop),
    ]
