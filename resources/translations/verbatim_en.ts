<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="en">
<context>
    <name>ConversationView</name>
    <message numerus="yes">
        <location filename="../../desktop/conversation.py" line="236" />
        <source>Asking about %n documents: {names}</source>
        <translation><numerusform>Asking about %n document: {names}</numerusform><numerusform>Asking about %n documents: {names}</numerusform></translation>
    </message>
</context>
<context>
    <name>GridDialog</name>
    <message numerus="yes">
        <location filename="../../desktop/grid_view.py" line="238" />
        <source>Searched: the wording of {clauses} clauses and the question, in %n passage(s) of this document</source>
        <translation><numerusform>Searched: the wording of {clauses} clauses and the question, in %n passage of this document</numerusform><numerusform>Searched: the wording of {clauses} clauses and the question, in %n passages of this document</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/grid_view.py" line="240" />
        <source>Searched: the question, in %n passage(s) of this document</source>
        <translation><numerusform>Searched: the question, in %n passage of this document</numerusform><numerusform>Searched: the question, in %n passages of this document</numerusform></translation>
    </message>
</context>
<context>
    <name>IndexingController</name>
    <message numerus="yes">
        <location filename="../../desktop/indexing_controller.py" line="251" />
        <source>(+%n queued)</source>
        <translation><numerusform>(+%n queued)</numerusform><numerusform>(+%n queued)</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/indexing_controller.py" line="268" />
        <source>Chunks: %n</source>
        <translation><numerusform>Chunks: %n</numerusform><numerusform>Chunks: %n</numerusform></translation>
    </message>
</context>
<context>
    <name>Plurals</name>
    <message numerus="yes">
        <location filename="../../desktop/texts.py" line="25" />
        <source>%n sentence(s) removed</source>
        <translation><numerusform>%n sentence removed</numerusform><numerusform>%n sentences removed</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/texts.py" line="29" />
        <source>%n citation(s) dropped</source>
        <translation><numerusform>%n citation dropped</numerusform><numerusform>%n citations dropped</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/texts.py" line="33" />
        <source>Reading %n passage(s)…</source>
        <translation><numerusform>Reading %n passage…</numerusform><numerusform>Reading %n passages…</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/texts.py" line="37" />
        <source>Generating the answer — %n token(s) so far…</source>
        <translation><numerusform>Generating the answer — %n token so far…</numerusform><numerusform>Generating the answer — %n tokens so far…</numerusform></translation>
    </message>
</context>
<context>
    <name>WatchController</name>
    <message numerus="yes">
        <location filename="../../desktop/watch_controller.py" line="171" />
        <source>%n file(s) changed: updating the index…</source>
        <translation><numerusform>%n file changed: updating the index…</numerusform><numerusform>%n files changed: updating the index…</numerusform></translation>
    </message>
</context>
<context>
    <name>WorkspaceController</name>
    <message numerus="yes">
        <location filename="../../desktop/workspace_controller.py" line="202" />
        <source>Chunks: %n</source>
        <translation><numerusform>Chunks: %n</numerusform><numerusform>Chunks: %n</numerusform></translation>
    </message>
</context>
<context>
    <name>WorkspacesPanel</name>
    <message numerus="yes">
        <location filename="../../desktop/workspaces_panel.py" line="344" />
        <location filename="../../desktop/workspaces_panel.py" line="401" />
        <source>%n chunk(s)</source>
        <translation><numerusform>%n chunk</numerusform><numerusform>%n chunks</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/workspaces_panel.py" line="397" />
        <source>%n document(s)</source>
        <translation><numerusform>%n document</numerusform><numerusform>%n documents</numerusform></translation>
    </message>
</context>
</TS>