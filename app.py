"""RelGuard Studio: review and release a corpus under relation differential privacy.

Run with ``streamlit run app.py`` (``bash scripts/app.sh`` sets up and loads the
sample corpus). This file only builds the navigation; each page is a thin layer
over the ``relguard`` library.
"""

from pathlib import Path

import streamlit as st

from pages._shared import init_state
from pages._sidebar import sidebar

st.set_page_config(
    page_title="RelGuard Studio", page_icon=str(Path(__file__).parent / "assets" / "favicon.png"), layout="wide"
)
init_state()
page = st.navigation(
    [
        st.Page("pages/documents.py", title="Documents", icon=":material/description:", default=True),
        st.Page("pages/triples.py", title="Triples", icon=":material/hub:"),
        st.Page("pages/pools.py", title="Candidate pools", icon=":material/view_list:"),
        st.Page("pages/review.py", title="Review", icon=":material/rule:"),
        st.Page("pages/tune.py", title="Tune", icon=":material/tune:"),
        st.Page("pages/release.py", title="Drawn release", icon=":material/compare:"),
        st.Page("pages/risk.py", title="Risk & utility", icon=":material/shield:"),
        st.Page("pages/export.py", title="Export", icon=":material/download:"),
        st.Page("pages/learn.py", title="Learn relation-DP", icon=":material/school:"),
    ]
)
page.run()
sidebar()
