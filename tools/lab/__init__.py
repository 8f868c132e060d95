"""The Injection Lab: scenario files played through the naive and the guarded harness.

``schema`` (what a scenario file may say) → ``loader`` (YAML → validated
scenarios) → ``runner`` (one scenario × harness × customer behaviour, in an
isolated database) → ``judge`` (utility, attack success, which guarantee held)
→ ``scores`` and ``report`` (AgentDojo-style table, JSON, HTML). ``views`` is
the trainee page. See docs/injection-lab.md.
"""
