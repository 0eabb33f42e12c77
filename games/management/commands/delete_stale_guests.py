from django.core.management.base import BaseCommand

from games.guests import stale_guests


class Command(BaseCommand):
    help = "Delete guest accounts (and their matches) not seen for a number of days."

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=30)
        parser.add_argument("--dry-run", action="store_true")

    def handle(self, *args, days, dry_run, **options):
        guests = stale_guests(days)
        count = guests.count()
        if not dry_run:
            for user in guests:
                user.delete()
        verb = "would delete" if dry_run else "deleted"
        self.stdout.write(f"{verb} {count} guest account(s) unused for {days} days")
