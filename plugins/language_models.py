"""Built-in language models, from ``plugins/data/language_models.csv``.

The table gives each model's shape as its paper and published configuration state it;
:meth:`LanguageModel.from_config` derives the attention width and the numbers its KV
cache keeps per token.
"""

from __future__ import annotations

from geomodel.catalog.language_models import LanguageModel
from geomodel.hookspecs import hookimpl

from ._tables import Row, entry_fields, figure_sources, read_table

GEOMODEL_PLUGIN_API = "1"


#: Columns that describe the configuration rather than an entry field.
CONFIG_COLUMNS = ("attention_heads", "head_dim", "decode_head_dim", "kv_heads", "kv_latent_dim")


def model_from_row(row: Row) -> LanguageModel:
    """One catalogue entry from one row of the table."""
    fields = LanguageModel.model_fields
    config = {column: int(row[column]) for column in CONFIG_COLUMNS if row[column]}
    return LanguageModel.from_config(
        **config, **entry_fields(row, fields), figure_sources=figure_sources(row, fields)
    )


@hookimpl
def register_language_models() -> list[LanguageModel]:
    """Well-known open-weight models (Llama 2 and 3.1, Mixtral, DeepSeek-R1, gpt-oss, GPT-3)."""
    return [model_from_row(row) for row in read_table("language_models")]
