# Repository root conftest: makes `import metrics` / `import ui` work from every test directory.
