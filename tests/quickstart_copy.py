"""The bundled quickstart copied into a test's folder, with the Azure trace it names."""

from __future__ import annotations

import shutil
from pathlib import Path

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
QUICKSTART = SCENARIOS / "quickstart.yaml"
#: where the quickstart's chat reads its prompt and output lengths, beside the file
AZURE_TRACE = Path("data") / "azure-llm-2023" / "AzureLLMInferenceTrace_conv.csv.gz"


def copy_quickstart(folder: Path, name: str = "quickstart.yaml") -> Path:
    """The quickstart as ``folder / name``, with the trace (180 kB) at the same place beside
    it: a link would point outside the folder, which a scenario may not read."""
    shutil.copy(QUICKSTART, folder / name)
    (folder / AZURE_TRACE.parent).mkdir(parents=True, exist_ok=True)
    shutil.copy(SCENARIOS / AZURE_TRACE, folder / AZURE_TRACE)
    return folder / name
