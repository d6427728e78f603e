"""The Documents page's **Extraction backends** panel: endpoint, model, the remote confirmation, the choices."""

from __future__ import annotations

import streamlit as st

from pages._shared import CANDIDATES, EXTRACTORS, lasting, studio
from relguard import llm


def _use_local_server() -> None:
    """Fill in a model server running on this machine (an on_click callback: it runs before the widgets)."""
    st.session_state.local_llm_found, env = llm.local_server_settings()
    for state, name in (("llm_base_url", llm.BASE_URL_ENV), ("llm_model", llm.MODEL_ENV)):
        if name in env:
            st.session_state[state] = st.session_state[f"w_{state}"] = env[name]


def _confirm() -> None:
    studio().confirm_remote(bool(st.session_state.w_llm_remote_ok))


def privacy_line() -> None:
    """The page's promise, said only when it is true: nothing leaves this machine unless a remote LLM is in use."""
    session = studio()
    if session.stays_on_machine():
        st.write("Nothing leaves this machine; each browser session sees only its own documents.")
    else:
        st.warning(
            f"Documents are sent to the LLM endpoint {session.llm_endpoint()}, which is not on this machine (you "
            "confirmed it under **Extraction backends**). Each browser session sees only its own documents.",
            icon="🌐",
        )


def remote_confirmation(available: bool) -> None:
    """An explicit tick before documents go to an endpoint that is not on this machine (never a silent default)."""
    session = studio()
    if not available or not session.endpoint_is_remote():
        return
    st.session_state.w_llm_remote_ok = session.remote_confirmed()
    st.checkbox(
        f"Send the documents to {session.llm_endpoint()}: it is not on this machine, and I am allowed to send "
        "this corpus there",
        key="w_llm_remote_ok",
        on_change=_confirm,
        help="The CLI's --allow-remote-llm. Without it the LLM backends stay off and the offline ones are used.",
    )
    if not session.remote_confirmed():
        st.info("The LLM backends stay off until you confirm sending the documents to this endpoint.")


def backends_panel() -> None:
    with st.expander("Extraction backends", expanded=st.session_state.extractor_name == "llm"):
        help_ = "Asks 127.0.0.1 for an OpenAI-compatible server's model list (nothing else is sent) and fills it in."
        st.button("Find a local model server", key="find_local_llm", on_click=_use_local_server, help=help_)
        if found := st.session_state.get("local_llm_found"):
            st.caption(found)
        left, right = st.columns(2)
        lasting(
            left.text_input,
            f"LLM base URL ({llm.BASE_URL_ENV})",
            key="w_llm_base_url",
            state="llm_base_url",
            placeholder="http://localhost:11434/v1",
        )
        lasting(right.text_input, f"LLM model ({llm.MODEL_ENV})", key="w_llm_model", state="llm_model")
        environ = studio().llm_environ()
        available = llm.configured(environ)
        (st.caption if available else st.info)(llm.status(environ))
        remote_confirmation(available)
        usable = available and (not studio().endpoint_is_remote() or studio().remote_confirmed())
        left, right = st.columns(2)
        lasting(
            left.radio,
            "Extractor",
            EXTRACTORS,
            key="w_extractor",
            state="extractor_name",
            horizontal=True,
            disabled=not usable,
            help="spacy runs offline; llm keeps every spaCy slot and adds the model's, sending each document to the "
            "endpoint above.",
        )
        lasting(
            right.radio,
            "Candidate pools",
            CANDIDATES,
            key="w_candidates",
            state="candidates_name",
            horizontal=True,
            disabled=not usable,
            help="inventory is the offline public list; llm asks the endpoint with only the type pair and K (Fig. 5).",
        )
