"""What the analyst app needs from the library, without Streamlit: session state and its operations, tables,
graphs, HTML views and the teaching example."""
