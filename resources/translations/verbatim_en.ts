<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="en">
<context>
    <name>IndexingController</name>
    <message numerus="yes">
        <location filename="../../desktop/indexing_controller.py" line="230" />
        <source>(+%n queued)</source>
        <translation><numerusform>(+%n queued)</numerusform><numerusform>(+%n queued)</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/indexing_controller.py" line="249" />
        <source>Chunks: %n</source>
        <translation><numerusform>Chunks: %n</numerusform><numerusform>Chunks: %n</numerusform></translation>
    </message>
</context>
<context>
    <name>WatchController</name>
    <message numerus="yes">
        <location filename="../../desktop/watch_controller.py" line="173" />
        <source>%n file(s) changed: updating the index…</source>
        <translation><numerusform>%n file changed: updating the index…</numerusform><numerusform>%n files changed: updating the index…</numerusform></translation>
    </message>
</context>
<context>
    <name>WorkspaceController</name>
    <message numerus="yes">
        <location filename="../../desktop/workspace_controller.py" line="198" />
        <source>Chunks: %n</source>
        <translation><numerusform>Chunks: %n</numerusform><numerusform>Chunks: %n</numerusform></translation>
    </message>
</context>
<context>
    <name>WorkspacesPanel</name>
    <message numerus="yes">
        <location filename="../../desktop/workspaces_panel.py" line="326" />
        <location filename="../../desktop/workspaces_panel.py" line="378" />
        <source>%n chunk(s)</source>
        <translation><numerusform>%n chunk</numerusform><numerusform>%n chunks</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/workspaces_panel.py" line="374" />
        <source>%n document(s)</source>
        <translation><numerusform>%n document</numerusform><numerusform>%n documents</numerusform></translation>
    </message>
</context>
</TS>