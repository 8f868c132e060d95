"""A playground attack saved as a scenario file, ready for the corpus.

The file is one scenario (a mapping with an ``id``), as lab/loader.py reads it, so it
loads back and validates with the schema unchanged. It is the scenario as the form
built it, defaults left out; the planted text is kept exactly as written (invisible
characters included), and any ``{{ … }}`` template stays a template. It expects
nothing of the customer's task: before it joins the corpus, its author adds what the
customer's request should get (``expected:``, docs/injection-lab.md).
"""

from __future__ import annotations

import yaml
from django.http import HttpResponse

from lab.schema import Scenario

HEADER = "# An Injection Lab scenario written in the playground. Run it: python manage.py injectionlab FILE\n"


def scenario_yaml(scenario: Scenario) -> str:
    data = scenario.model_dump(mode="json", exclude_defaults=True)
    return HEADER + yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)


def scenario_download(scenario: Scenario) -> HttpResponse:
    response = HttpResponse(scenario_yaml(scenario), content_type="application/yaml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{scenario.id}.yaml"'
    return response
