"""geomodel's Streamlit app: ``streamlit run app.py`` (the pages live in geomodel/ui)."""

from geomodel.ui.app import main

if __name__ == "__main__":  # not when a solver process re-imports this file (spawn)
    main()
