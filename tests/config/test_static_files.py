"""Static files: hashed names cached for a year in production, plain names in the demo."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# A production process that runs collectstatic (as the image's build does) into `root`,
# then reads the sign-in page and asks for the script it names and for the plain name.
SERVE = """
import json, os, re, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse
with override_settings(STATIC_ROOT=sys.argv[1]):
    call_command("collectstatic", "--noinput", verbosity=0)
    browser = Client()
    page = browser.get(reverse("login")).content.decode()
    named = re.search(r'<script src="(/static/js/league[^"]*)"', page).group(1)
    print(json.dumps({"named": named,
                      "hashed": browser.get(named)["Cache-Control"],
                      "plain": browser.get("/static/js/league.js")["Cache-Control"]}))
"""


def run(code: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """A fresh process on the embedded database with these variables."""
    clean = {k: v for k, v in os.environ.items()
             if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL")}
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=120)


def test_a_production_page_names_hashed_static_files_cached_for_a_year(tmp_path: Path) -> None:
    """With plain names and a minute's max-age, a browser asked again every minute, and
    within that minute could run an old script against a new page."""
    done = run(SERVE, str(tmp_path), DJANGO_DEBUG="false", DJANGO_SECRET_KEY="k" * 50)
    assert done.returncode == 0, done.stderr
    served = json.loads(done.stdout)
    assert served["named"] != "/static/js/league.js"
    assert (tmp_path / served["named"].removeprefix("/static/")).is_file()
    # the name carries the hash of the script's content: a changed script, a new name
    content = (ROOT / "static" / "js" / "league.js").read_bytes()
    assert served["named"] == f"/static/js/league.{hashlib.md5(content).hexdigest()[:12]}.js"
    assert "immutable" in served["hashed"] and "max-age=315360000" in served["hashed"]
    # an old page's plain name still answers, but briefly cached
    assert "max-age=60" in served["plain"]


def test_the_demo_names_plain_static_files_without_a_collectstatic() -> None:
    demo = run("import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', "
               "'config.settings'); django.setup(); from django.templatetags.static import "
               "static; print(static('js/league.js'))", DJANGO_DEBUG="true")
    assert demo.returncode == 0, demo.stderr
    assert demo.stdout.strip() == "/static/js/league.js"


# The demo's runserver, with its default options, answering a request for the pages'
# script: its Cache-Control, and whether an unchanged copy is confirmed (a 304).
DEMO_SERVE = """
import json, os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from wsgiref.util import setup_testing_defaults
from django.core.management import get_commands, load_command_class
runserver = load_command_class(get_commands()["runserver"], "runserver")
options = vars(runserver.create_parser("manage.py", "runserver").parse_args([]))
handler = runserver.get_handler(**options)

def get(**headers):
    environ = {"PATH_INFO": "/static/js/league.js", **headers}
    setup_testing_defaults(environ)
    answer = {}
    def start(status, sent, exc_info=None):
        answer.update(status=status, headers=dict(sent))
    b"".join(handler(environ, start))
    return answer

first = get()
again = get(HTTP_IF_NONE_MATCH=first["headers"].get("ETag", "none"))
print(json.dumps({"first": first, "again": again["status"]}))
"""


def test_the_demo_has_a_browser_ask_for_its_static_files_again_at_every_page() -> None:
    """The demo's runserver served the plain names with no Cache-Control: a browser
    guessed how long to keep them (a tenth of their age, hours for a file a few days
    old) and ran an old league.js against the pages of an updated demo."""
    demo = run(DEMO_SERVE, DJANGO_DEBUG="true")
    assert demo.returncode == 0, demo.stderr
    served = json.loads(demo.stdout)
    assert served["first"]["status"].startswith("200")
    assert "max-age=0" in served["first"]["headers"].get("Cache-Control", ""), served
    assert served["again"].startswith("304")  # (unchanged: asking again costs no body)
