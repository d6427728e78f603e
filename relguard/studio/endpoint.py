"""Which LLM endpoint the app's backends would talk to, and whether documents may go there.

A mixin of :class:`relguard.studio.session.Studio`: it reads the session's base URL and model fields over the
environment, and keeps the analyst's confirmation for one endpoint not on this machine (another URL asks again),
so the offline backends stay chosen until documents may leave.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping

from relguard import llm
from relguard.llm.endpoint import HOSTED_DEFAULT


class LLMEndpointChoice:
    """The endpoint half of the session: ``state`` and ``environ`` are the session's."""

    state: MutableMapping
    environ: Mapping[str, str]

    def llm_environ(self) -> dict[str, str]:
        """The environment as the LLM backends will see it, with the app's base URL and model fields on top."""
        env = dict(self.environ)
        for name, value in ((llm.BASE_URL_ENV, self.state["llm_base_url"]), (llm.MODEL_ENV, self.state["llm_model"])):
            if value:
                env[name] = value
        return env

    def llm_base_url(self) -> str | None:
        """The base URL the LLM backends would use (None: the ``openai`` client's default, OpenAI's hosted API)."""
        return self.llm_environ().get(llm.BASE_URL_ENV) or None

    def llm_endpoint(self) -> str:
        return self.llm_base_url() or HOSTED_DEFAULT

    def endpoint_is_remote(self) -> bool:
        """Whether the configured LLM endpoint is not on this machine (sending to it needs a confirmation)."""
        return not llm.is_local(self.llm_base_url())

    def remote_confirmed(self) -> bool:
        """Whether the analyst confirmed sending documents to *this* endpoint (another URL asks again)."""
        return self.endpoint_is_remote() and self.state["llm_remote_confirmed"] == self.llm_endpoint()

    def confirm_remote(self, yes: bool) -> None:
        self.state["llm_remote_confirmed"] = self.llm_endpoint() if yes else ""

    def backend_choice(self) -> tuple[str, str]:
        """The chosen (extractor, candidates) names; the offline ones whenever no LLM endpoint is configured, or
        the endpoint is not on this machine and the analyst has not confirmed sending documents there."""
        if not llm.configured(self.llm_environ()) or (self.endpoint_is_remote() and not self.remote_confirmed()):
            return "spacy", "inventory"
        return self.state["extractor_name"], self.state["candidates_name"]

    def stays_on_machine(self) -> bool:
        """Whether nothing leaves this machine: offline backends chosen, or the LLM endpoint runs here."""
        return "llm" not in self.backend_choice() or not self.endpoint_is_remote()
