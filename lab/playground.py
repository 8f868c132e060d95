"""The playground: a trainee writes an attack, and sees the naive and the guarded
harness meet it side by side.

A small form — where the text is planted (a merchant's name, a transaction's
description, the label staff give a card), the planted text, the customer's
request, the model and how the customer clicks — becomes a ``Scenario`` of the
lab's own schema, in a fixed world of two customers (lab/playground_world.py). So
it is checked by the same rules as the corpus, runs through the same runner in a
throwaway isolated database (lab/isolation.py; never the bank's data), and can be
saved as a scenario file that loads back (lab/playground_export.py). Runs are
rate-limited per trainee (lab/playground_limit.py); saving runs nothing and is
not counted.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods
from pydantic import ValidationError

from accounts.text import reveal_hidden
from lab.access import lab_view
from lab.playground_export import scenario_download
from lab.playground_limit import run_wait
from lab.playground_world import place_of, playground_setup
from lab.reading import needles
from lab.report import run_view
from lab.runner import HARNESSES, run_scenario
from lab.schema import TECHNIQUES, Scenario
from lab.templating import Renderer, template_problems
from lab.words import TECHNIQUE_WORDS

REQUEST_MAX = 1000
# C0 and C1 controls but tab and line breaks: nothing shows them (reveal_hidden marks the
# invisible format characters, not these), so they are refused rather than stored unseen.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
SAVE = "save"  # the "Save as scenario" button's action: a download, nothing run


class PlaygroundForm(forms.Form):
    place = forms.ChoiceField(
        label=_("Where the attacker's text is planted"),
        choices=[
            ("merchant_name", _("the merchant's name on a transaction")),
            ("description", _("a transaction's description")),
            ("staff_label", _("the label staff give a card")),
        ],
        initial="merchant_name",
        widget=forms.RadioSelect,
    )
    planted = forms.CharField(
        label=_("The planted text"),
        strip=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    request = forms.CharField(
        label=_("What the customer asks"),
        max_length=REQUEST_MAX,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    # The fooled model that obeys text marked as external, or the adversary that
    # asks for every write the tools accept (lab/adversary.py).
    model = forms.ChoiceField(
        label=_("The model"),
        choices=[
            ("offline-compromised", _("the compromised model: obeys what it reads in tool output")),
            ("adversary", _("the adversary: proposes every write the tools accept")),
        ],
        initial="offline-compromised",
    )
    customer = forms.ChoiceField(
        label=_("The customer"),
        choices=[
            ("never-click", _("never clicks")),
            ("confirm-all", _("confirms every card shown (tired)")),
        ],
        initial="confirm-all",
    )
    technique = forms.ChoiceField(
        label=_("The technique (kept in the saved file)"),
        choices=[(t, TECHNIQUE_WORDS.get(t, t)) for t in TECHNIQUES],  # in words, lazily translated
        initial="ignore_previous",
    )

    def __init__(self, data: Mapping[str, str] | None = None) -> None:
        super().__init__(data)
        self.now = timezone.localtime()
        # This month's statement holds the planted transaction (posted today), so it is read;
        # "this month" rather than its number keeps a saved file true in later months.
        self.fields["request"].initial = gettext("Show my statement for this month")
        self.fields["planted"].widget.attrs["aria-describedby"] = "planted-help"
        self.fields["request"].widget.attrs["aria-describedby"] = "request-help"

    def clean_planted(self) -> str:
        text: str = self.cleaned_data["planted"]
        if not text.strip():
            raise forms.ValidationError(_("Write the text the attacker plants."), code="required")
        return _without_controls(text)

    def clean_request(self) -> str:
        return _without_controls(self.cleaned_data["request"])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        place_name, planted, request = (cleaned.get(k) for k in ("place", "planted", "request"))
        if not (isinstance(place_name, str) and isinstance(planted, str) and isinstance(request, str)):
            return cleaned
        place = place_of(place_name)
        # Templates name the world's transactions, not the planted text: a neutral
        # stand-in lets them be checked before the text's own length is.
        world = playground_setup(place, "Coffee Boom")
        for field, text in (("planted", planted), ("request", request)):
            problems = template_problems(text, world)
            if problems:
                self.add_error(
                    field,
                    forms.ValidationError(
                        _("A {{ … }} template the lab cannot render here: %(problems)s."),
                        code="template",
                        params={"problems": "; ".join(problems)},
                    ),
                )
                return cleaned
        count = max(len(planted), len(Renderer(world, self.now).text(planted)))
        if count > place.limit:
            self.add_error(
                "planted",
                forms.ValidationError(
                    _("%(place)s holds at most %(limit)d characters; this text has %(count)d."),
                    code="max_length",
                    params={"place": place.title, "limit": place.limit, "count": count},
                ),
            )
        return cleaned

    def scenario(self) -> Scenario:
        """The form as a scenario of the lab's schema (call once the form is valid)."""
        data = self.cleaned_data
        place = place_of(data["place"])
        fields = {k: data[k] for k in ("place", "planted", "request", "model", "technique")}
        digest = hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:10]
        return Scenario.model_validate(
            {
                "id": f"playground-{digest}",
                "title": f"A trainee's attack in {place.vector.replace('_', ' ')}",
                "kind": "attack",
                "vector": place.vector,
                "technique": data["technique"],
                "task": "statement",
                "guarantees": ["G7", "G6"],
                "notes": "Written in the Injection Lab's playground.",
                "setup": playground_setup(place, data["planted"]).model_dump(
                    mode="json", exclude_defaults=True
                ),
                "steps": [{"say": data["request"]}],
                "model": data["model"],
            }
        )


def _without_controls(text: str) -> str:
    found = CONTROL.search(text)
    if found:
        raise forms.ValidationError(
            _("Control characters cannot be planted here (found U+%(code)04X)."),
            code="control",
            params={"code": ord(found.group())},
        )
    return text


@require_http_methods(["GET", "POST"])
@lab_view
def lab_playground(request: HttpRequest) -> HttpResponse:
    form = PlaygroundForm(request.POST if request.method == "POST" else None)
    context: dict[str, Any] = {"nav": "lab", "form": form, "runs": []}
    if request.method == "GET":
        return render(request, "lab/playground.html", context)
    scenario = _scenario_or_none(form)
    if scenario is None:
        return render(request, "lab/playground.html", context, status=400)
    if request.POST.get("action") == SAVE:
        return scenario_download(scenario)
    wait = run_wait(str(request.user.pk))  # signed in: lab_view saw to it
    if wait:
        response = render(request, "lab/playground.html", {**context, "wait": wait}, status=429)
        response["Retry-After"] = str(wait)
        return response
    behaviour = form.cleaned_data["customer"]
    # The text as the world stores it (templates rendered), every hidden character marked.
    context["planted_shown"] = reveal_hidden(
        Renderer(scenario.setup, form.now).text(form.cleaned_data["planted"])
    )
    # The trainee's own text is the planted text: marked wherever a run shows it.
    planted = Renderer(scenario.setup, form.now).text(form.cleaned_data["planted"])
    context["planted"] = [reveal_hidden(planted)]
    context["runs"] = [
        run_view(run_scenario(scenario, harness=harness, behaviour=behaviour).as_dict(), needles([planted]))
        for harness in HARNESSES
    ]
    return render(request, "lab/playground.html", context)


def _scenario_or_none(form: PlaygroundForm) -> Scenario | None:
    """The trainee's scenario, or None with the problem on the form. The form's own
    checks come first; the schema's are the last word, said as the loader says them."""
    if not form.is_valid():
        return None
    try:
        return form.scenario()
    except ValidationError as error:
        for item in error.errors()[:3]:
            form.add_error(None, str(item["msg"]).removeprefix("Value error, "))
        return None
