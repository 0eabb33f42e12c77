"""Default rule pages (three games) and legal pages, in German and English.

Creates only what is missing, so re-running it (or a later migration calling ``install``
again for new pages) never touches a page staff already edited.
"""

from django.db import migrations


def load_defaults(apps, schema_editor):
    from cardsite.rules.defaults import install

    install(apps, schema_editor)


class Migration(migrations.Migration):
    dependencies = [("rules", "0001_initial")]

    operations = [migrations.RunPython(load_defaults, migrations.RunPython.noop)]
