"""examples/quickstart.ipynb runs from top to bottom (nbclient), as a user runs it."""

from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[2] / "examples" / "quickstart.ipynb"


def test_quickstart_notebook_runs(tmp_path, artifacts):
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = NotebookClient(notebook, timeout=900, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    nbformat.write(notebook, artifacts / "quickstart.executed.ipynb")
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    figures = [o for o in outputs if "application/vnd.plotly.v1+json" in o.get("data", {})]
    assert len(figures) == 5  # walk-forward, PBO, heatmap, stability, equity
    # The sweep's progress display, which ends with what ran.
    shown = [o["data"]["text/plain"] for o in outputs if o.get("output_type") in ("display_data", "update_display_data")
             and "text/plain" in o.get("data", {})]
    assert any(text.startswith("btforge sweep: 4608 combinations (1044 distinct outcomes) in ") for text in shown), shown
    report = tmp_path / "quickstart-report.html"
    assert report.exists() and report.stat().st_size > 1_000_000
