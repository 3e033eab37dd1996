"""The one thing pyproject.toml cannot say: the repository's top-level resources/ folder is installed
inside the package, as explorer/resources (read with importlib.resources), so that nothing but
`explorer` lands at the top of site-packages."""

from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["explorer", "explorer.*"]) + ["explorer.resources"],
    package_dir={"explorer.resources": "resources"},
    package_data={"explorer.resources": ["**/*"]},
)
