"""The Injection Lab: scenario files played through the naive and the guarded harness.

``schema`` (what a scenario file may say) → ``loader`` (YAML → validated
scenarios) → ``runner`` (one scenario × harness × customer behaviour, in an
isolated database) → ``judge`` (utility, attack success, which guarantee held)
→ ``scores`` and ``report`` (AgentDojo-style table, informative fraction, JSON,
HTML). The models a run talks to come from ``clients`` — among them
``adversary``, the worst case, which asks for every write the tools accept;
``headline`` stores its corpus-wide figure for ``views``, the trainee page.
See docs/injection-lab.md.
"""
