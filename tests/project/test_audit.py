"""bin/audit, the CI's dependency audit: pip-audit against both locks. It reports what
is vulnerable (and fails), and says plainly when nothing could be audited — the
vulnerability database out of reach, or knowing none of the pins — without failing the
run for that alone. pip-audit here is a fake: no test reaches a network."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)

FAKE = textwrap.dedent("""
    import json, sys
    scenario, args = sys.argv[1], sys.argv[2:]
    locks = [args[i + 1] for i, arg in enumerate(args) if arg in ("-r", "--requirement")]
    if sorted(locks) != ["requirements-test.lock", "requirements.lock"] or "--no-deps" not in args:
        sys.exit("not called on both locks: " + " ".join(args))
    output = args[args.index("--output") + 1]
    def report(dependencies):
        with open(output, "w") as f:
            json.dump({"dependencies": dependencies, "fixes": []}, f)
    django = {"name": "django", "version": "5.2.19"}
    if scenario == "unreachable":
        print("Traceback (most recent call last):", file=sys.stderr)
        print("requests.exceptions.ConnectionError: HTTPSConnectionPool(host='pypi.org', "
              "port=443): Max retries exceeded", file=sys.stderr)
        sys.exit(1)
    if scenario == "broken":
        print("ERROR:pip_audit._cli:requirement file could not be parsed", file=sys.stderr)
        sys.exit(1)
    if scenario == "unknown":
        report([{"name": "django", "skip_reason": "Dependency not found on PyPI and could not "
                                                  "be audited: django (5.2.19)"}])
    elif scenario == "clean":
        report([{**django, "vulns": []}, {"name": "redis", "version": "8.1.0", "vulns": []}])
    elif scenario == "vulnerable":
        report([{**django, "vulns": [{"id": "PYSEC-2026-1", "fix_versions": ["5.2.20"],
                                      "aliases": [], "description": ""}]},
                {"name": "redis", "version": "8.1.0", "vulns": []}])
        sys.exit(1)
""")


def audit(tmp_path: Path, scenario: str) -> subprocess.CompletedProcess[str]:
    fake = tmp_path / "fake_pip_audit.py"
    fake.write_text(FAKE)
    return subprocess.run(  # noqa: S603 (our own script and interpreter)
        [sys.executable, str(ROOT / "bin" / "audit"), "--pip-audit", f"{sys.executable} {fake} {scenario}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_an_unreachable_database_is_said_plainly_and_does_not_fail_the_run(tmp_path):
    done = audit(tmp_path, "unreachable")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "NOT AUDITED: the vulnerability database could not be reached" in done.stdout
    assert "No known vulnerabilities" not in done.stdout


def test_a_database_that_knows_none_of_the_pins_is_not_taken_for_a_clean_audit(tmp_path):
    done = audit(tmp_path, "unknown")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "NOT AUDITED" in done.stdout and "knows none of the 1 pinned packages" in done.stdout
    assert "No known vulnerabilities" not in done.stdout


def test_a_clean_audit_says_how_many_pins_it_checked(tmp_path):
    done = audit(tmp_path, "clean")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "No known vulnerabilities in the 2 audited pins." in done.stdout


def test_a_known_vulnerability_is_reported_and_fails_the_run(tmp_path):
    done = audit(tmp_path, "vulnerable")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "VULNERABLE: django 5.2.19: PYSEC-2026-1 (fixed in 5.2.20)" in done.stdout


def test_a_broken_audit_fails_the_run(tmp_path):
    done = audit(tmp_path, "broken")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "The audit failed" in done.stdout


def test_ci_runs_the_audit_and_the_test_tools_pin_pip_audit():
    assert "bin/audit" in (ROOT / ".ci" / "run").read_text()
    pins = (ROOT / "requirements-test.lock").read_text().lower().replace("_", "-").splitlines()
    assert any(line.startswith("pip-audit==") for line in pins)
