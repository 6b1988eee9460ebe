<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="es_ES">
<context>
    <name>AnswerFlow</name>
    <message>
        <location filename="../../desktop/answer_flow.py" line="166" />
        <source>Waiting…</source>
        <translation>Esperando…</translation>
    </message>
    <message>
        <location filename="../../desktop/answer_flow.py" line="177" />
        <source>Stopping…</source>
        <translation>Deteniendo…</translation>
    </message>
    <message>
        <location filename="../../desktop/answer_flow.py" line="221" />
        <location filename="../../desktop/answer_flow.py" line="238" />
        <location filename="../../desktop/answer_flow.py" line="427" />
        <source>{n} sentences verified as the model writes…</source>
        <translation>{n} frases verificadas mientras el modelo escribe…</translation>
    </message>
    <message>
        <location filename="../../desktop/answer_flow.py" line="309" />
        <source>Could not answer: {error}</source>
        <translation>No se pudo responder: {error}</translation>
    </message>
    <message>
        <location filename="../../desktop/answer_flow.py" line="310" />
        <source>Stopped</source>
        <translation>Detenido</translation>
    </message>
</context>
<context>
    <name>CitationPanel</name>
    <message>
        <location filename="../../desktop/citation_panel.py" line="220" />
        <location filename="../../desktop/citation_panel.py" line="318" />
        <source>Citation</source>
        <translation>Cita</translation>
    </message>
    <message>
        <location filename="../../desktop/citation_panel.py" line="237" />
        <source>Click a citation number to see its page.</source>
        <translation>Pulse un número de cita para ver su página.</translation>
    </message>
    <message>
        <location filename="../../desktop/citation_panel.py" line="223" />
        <source>OCR — check the page: this text was recognised from an image.</source>
        <translation>OCR — compruebe la página: este texto se reconoció a partir de una imagen.</translation>
    </message>
    <message>
        <location filename="../../desktop/citation_panel.py" line="220" />
        <location filename="../../desktop/citation_panel.py" line="318" />
        <source>Closest passage — not an answer</source>
        <extracomment>The quote box of a verified citation (yellow) and of a weak passage (grey, as its chips in the answer). The quote's highlight in the text of a non-PDF page (yellow; grey for a weak passage).</extracomment>
        <translation>Pasaje más cercano — no es una respuesta</translation>
    </message>
    <message>
        <location filename="../../desktop/citation_panel.py" line="221" />
        <source>Weak passage, not a citation: no passage scored high enough to answer the question. This is the closest one; read its clause before concluding.</source>
        <translation>Pasaje débil, no es una cita: ningún pasaje puntuó lo bastante para responder a la pregunta. Este es el más cercano; lea su cláusula antes de concluir.</translation>
    </message>
    <message>
        <location filename="../../desktop/citation_panel.py" line="224" />
        <source>Previous citation (Alt+Left)</source>
        <translation>Cita anterior (Alt+Izquierda)</translation>
    </message>
    <message>
        <location filename="../../desktop/citation_panel.py" line="225" />
        <source>Next citation (Alt+Right)</source>
        <translation>Cita siguiente (Alt+Derecha)</translation>
    </message>
    <message>
        <location filename="../../desktop/citation_panel.py" line="226" />
        <source>Previous page</source>
        <translation>Página anterior</translation>
    </message>
    <message>
        <location filename="../../desktop/citation_panel.py" line="226" />
        <source>Next page</source>
        <translation>Página siguiente</translation>
    </message>
    <message>
        <location filename="../../desktop/citation_panel.py" line="227" />
        <source>Zoom out</source>
        <translation>Alejar</translation>
    </message>
    <message>
        <location filename="../../desktop/citation_panel.py" line="227" />
        <source>Zoom in</source>
        <translation>Acercar</translation>
    </message>
    <message>
        <location filename="../../desktop/citation_panel.py" line="231" />
        <source>Open</source>
        <translation>Abrir</translation>
    </message>
    <message>
        <location filename="../../desktop/citation_panel.py" line="228" />
        <source>Open in the default viewer</source>
        <translation>Abrir en el visor predeterminado</translation>
    </message>
    <message>
        <location filename="../../desktop/citation_panel.py" line="232" />
        <source>Find in document (Ctrl+F)</source>
        <translation>Buscar en el documento (Ctrl+F)</translation>
    </message>
    <message>
        <location filename="../../desktop/citation_panel.py" line="233" />
        <source>Find in document</source>
        <translation>Buscar en el documento</translation>
    </message>
    <message>
        <location filename="../../desktop/citation_panel.py" line="238" />
        <source>The cited page appears here, rendered from the document, with the quoted passage highlighted.</source>
        <translation>Aquí aparece la página citada, dibujada a partir del documento, con el pasaje citado resaltado.</translation>
    </message>
    <message>
        <location filename="../../desktop/citation_panel.py" line="234" />
        <source>Cited page</source>
        <translation>Página citada</translation>
    </message>
    <message>
        <location filename="../../desktop/citation_panel.py" line="235" />
        <source>Cited text</source>
        <translation>Texto citado</translation>
    </message>
    <message>
        <location filename="../../desktop/citation_panel.py" line="284" />
        <source>page {n}</source>
        <translation>página {n}</translation>
    </message>
    <message>
        <location filename="../../desktop/citation_panel.py" line="430" />
        <source>Rendering page…</source>
        <extracomment>The quote box's most lines; a longer quote scrolls inside it.</extracomment>
        <translation>Dibujando la página…</translation>
    </message>
    <message>
        <location filename="../../desktop/citation_panel.py" line="525" />
        <location filename="../../desktop/citation_panel.py" line="539" />
        <source>Not found</source>
        <translation>No encontrado</translation>
    </message>
    <message>
        <location filename="../../desktop/citation_panel.py" line="530" />
        <source>Searching…</source>
        <translation>Buscando…</translation>
    </message>
</context>
<context>
    <name>ConversationView</name>
    <message>
        <location filename="../../desktop/conversation.py" line="190" />
        <source>Conversation</source>
        <translation>Conversación</translation>
    </message>
    <message>
        <location filename="../../desktop/conversation.py" line="191" />
        <location filename="../../desktop/conversation.py" line="262" />
        <source>New conversation</source>
        <translation>Nueva conversación</translation>
    </message>
    <message>
        <location filename="../../desktop/conversation.py" line="193" />
        <source>Start a new conversation: the next question is not read as a follow-up of the earlier ones (Ctrl+Shift+N)</source>
        <translation>Empezar una conversación nueva: la siguiente pregunta no se lee como continuación de las anteriores (Ctrl+Mayús+N)</translation>
    </message>
    <message>
        <location filename="../../desktop/conversation.py" line="195" />
        <source>Copy answer</source>
        <translation>Copiar respuesta</translation>
    </message>
    <message>
        <location filename="../../desktop/conversation.py" line="196" />
        <source>Copy the last answer with its citations</source>
        <translation>Copiar la última respuesta con sus citas</translation>
    </message>
    <message>
        <location filename="../../desktop/conversation.py" line="197" />
        <source>Export</source>
        <translation>Exportar</translation>
    </message>
    <message>
        <location filename="../../desktop/conversation.py" line="198" />
        <source>Export the conversation as Markdown or PDF</source>
        <translation>Exportar la conversación como Markdown o PDF</translation>
    </message>
    <message>
        <location filename="../../desktop/conversation.py" line="199" />
        <source>Export Markdown…</source>
        <translation>Exportar Markdown…</translation>
    </message>
    <message>
        <location filename="../../desktop/conversation.py" line="200" />
        <source>Export PDF…</source>
        <translation>Exportar PDF…</translation>
    </message>
    <message>
        <location filename="../../desktop/conversation.py" line="203" />
        <source>Answering state</source>
        <translation>Estado de la respuesta</translation>
    </message>
    <message>
        <location filename="../../desktop/conversation.py" line="205" />
        <source>Ask a question about this workspace's documents (Ctrl+L). Enter asks, Ctrl+Enter adds a line.</source>
        <translation>Pregunte sobre los documentos de este espacio de trabajo (Ctrl+L). Intro pregunta, Ctrl+Intro añade una línea.</translation>
    </message>
    <message>
        <location filename="../../desktop/conversation.py" line="207" />
        <source>Question</source>
        <translation>Pregunta</translation>
    </message>
    <message>
        <location filename="../../desktop/conversation.py" line="208" />
        <location filename="../../desktop/conversation.py" line="209" />
        <source>Ask</source>
        <translation>Preguntar</translation>
    </message>
    <message>
        <location filename="../../desktop/conversation.py" line="210" />
        <source>Stop</source>
        <translation>Detener</translation>
    </message>
    <message>
        <location filename="../../desktop/conversation.py" line="211" />
        <source>Stop answering</source>
        <translation>Detener la respuesta</translation>
    </message>
    <message>
        <location filename="../../desktop/conversation.py" line="212" />
        <source>Search all documents</source>
        <translation>Buscar en todos los documentos</translation>
    </message>
    <message>
        <location filename="../../desktop/conversation.py" line="213" />
        <source>Clear the selection: the next question searches the whole workspace</source>
        <translation>Borrar la selección: la próxima pregunta busca en todo el espacio de trabajo</translation>
    </message>
    <message>
        <location filename="../../desktop/conversation.py" line="214" />
        <source>Documents the next question searches</source>
        <translation>Documentos en los que busca la próxima pregunta</translation>
    </message>
    <message>
        <location filename="../../desktop/conversation.py" line="234" />
        <source>Asking about: {names}</source>
        <translation>Preguntando sobre: {names}</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/conversation.py" line="236" />
        <source>Asking about %n documents: {names}</source>
        <translation><numerusform>Preguntando sobre %n documento: {names}</numerusform><numerusform>Preguntando sobre %n documentos: {names}</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop/conversation.py" line="287" />
        <source>Answers appear here. Every sentence carries numbered citations; click one to see the quoted passage on its page.</source>
        <translation>Las respuestas aparecen aquí. Cada frase lleva citas numeradas; pulse una para ver el pasaje citado en su página.</translation>
    </message>
</context>
<context>
    <name>GridDialog</name>
    <message>
        <location filename="../../desktop/grid_view.py" line="113" />
        <source>Review grid — %1</source>
        <extracomment>Background of a cell by status (light, readable with black text; the status is also written). Narrowest width of a question column, in pixels (a header up to twice as wide gets its width).</extracomment>
        <translation>Tabla de revisión — %1</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="114" />
        <source>Add a question…</source>
        <translation>Añadir una pregunta…</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="115" />
        <source>Run</source>
        <translation>Ejecutar</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="116" />
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="117" />
        <source>Export…</source>
        <translation>Exportar…</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="130" />
        <source>answered</source>
        <translation>respondida</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="130" />
        <source>weak — closest passage, not an answer</source>
        <translation>débil — el pasaje más cercano, no una respuesta</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="131" />
        <source>not found in this document</source>
        <translation>no se encuentra en este documento</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="143" />
        <source>Add a question</source>
        <translation>Añadir una pregunta</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="143" />
        <source>Question asked of every document:</source>
        <translation>Pregunta que se hace a cada documento:</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="185" />
        <source>Starting…</source>
        <translation>Empezando…</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="197" />
        <source>Stopping after the current cell…</source>
        <translation>Deteniendo tras la celda en curso…</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="219" />
        <source>estimating…</source>
        <translation>calculando…</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="222" />
        <source>about %1 min left</source>
        <translation>quedan unos %1 min</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="223" />
        <source>%1 of %2 cells</source>
        <translation>%1 de %2 celdas</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="231" />
        <location filename="../../desktop/grid_view.py" line="248" />
        <source>p. %1</source>
        <translation>pág. %1</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="233" />
        <source>(PDF page %1)</source>
        <translation>(página %1 del PDF)</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/grid_view.py" line="238" />
        <source>Searched: the wording of {clauses} clauses and the question, in %n passage(s) of this document</source>
        <translation><numerusform>Se buscó: la redacción de las cláusulas de {clauses} y la pregunta, en %n pasaje de este documento</numerusform><numerusform>Se buscó: la redacción de las cláusulas de {clauses} y la pregunta, en %n pasajes de este documento</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/grid_view.py" line="240" />
        <source>Searched: the question, in %n passage(s) of this document</source>
        <translation><numerusform>Se buscó: la pregunta, en %n pasaje de este documento</numerusform><numerusform>Se buscó: la pregunta, en %n pasajes de este documento</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="242" />
        <source>Corrected by the reviewer: %1</source>
        <translation>Corregido por el revisor: %1</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="243" />
        <source>The machine's answer quoted:</source>
        <translation>La respuesta de la máquina citó:</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="250" />
        <source>reviewed</source>
        <translation>revisada</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="257" />
        <source>Done: %1 cells</source>
        <translation>Terminado: %1 celdas</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="260" />
        <source>The grid stopped: %1</source>
        <translation>La tabla se detuvo: %1</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="263" />
        <source>Stopped. The cells computed are kept; Run continues from there.</source>
        <translation>Detenida. Las celdas calculadas se conservan; Ejecutar continúa desde ahí.</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="289" />
        <source>Mark as reviewed</source>
        <translation>Marcar como revisada</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="289" />
        <source>Mark as not reviewed</source>
        <translation>Marcar como no revisada</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="290" />
        <source>Correct the answer…</source>
        <translation>Corregir la respuesta…</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="291" />
        <source>Add a note…</source>
        <translation>Añadir una nota…</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="297" />
        <source>Correct the answer</source>
        <translation>Corregir la respuesta</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="297" />
        <source>Answer:</source>
        <translation>Respuesta:</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="301" />
        <source>Note</source>
        <translation>Nota</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="301" />
        <source>Note:</source>
        <translation>Nota:</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="322" />
        <source>Export the grid</source>
        <translation>Exportar la tabla</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="324" />
        <source>Excel (*.xlsx);;CSV (*.csv);;PDF (*.pdf);;JSON (*.json)</source>
        <translation>Excel (*.xlsx);;CSV (*.csv);;PDF (*.pdf);;JSON (*.json)</translation>
    </message>
    <message>
        <location filename="../../desktop/grid_view.py" line="332" />
        <source>Grid written to %1</source>
        <translation>Tabla guardada en %1</translation>
    </message>
</context>
<context>
    <name>HistoryController</name>
    <message>
        <location filename="../../desktop/history_controller.py" line="65" />
        <source>New conversation: the next question is read on its own.</source>
        <translation>Nueva conversación: la siguiente pregunta se lee por sí sola.</translation>
    </message>
    <message>
        <location filename="../../desktop/history_controller.py" line="130" />
        <source>Delete history</source>
        <translation>Eliminar el historial</translation>
    </message>
    <message>
        <location filename="../../desktop/history_controller.py" line="130" />
        <source>Delete every question and answer of this workspace's history?</source>
        <translation>¿Eliminar todas las preguntas y respuestas del historial de este espacio de trabajo?</translation>
    </message>
</context>
<context>
    <name>IndexingController</name>
    <message>
        <location filename="../../desktop/indexing_controller.py" line="121" />
        <source>Waiting to index {names}</source>
        <translation>Esperando para indexar {names}</translation>
    </message>
    <message>
        <location filename="../../desktop/indexing_controller.py" line="125" />
        <source>Not a folder: </source>
        <translation>No es una carpeta: </translation>
    </message>
    <message>
        <location filename="../../desktop/indexing_controller.py" line="189" />
        <source>Cancelling…</source>
        <translation>Cancelando…</translation>
    </message>
    <message>
        <location filename="../../desktop/indexing_controller.py" line="231" />
        <source>Indexing in the background: {names}</source>
        <translation>Indexando en segundo plano: {names}</translation>
    </message>
    <message>
        <location filename="../../desktop/indexing_controller.py" line="249" />
        <source>Indexing {names}</source>
        <translation>Indexando {names}</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/indexing_controller.py" line="251" />
        <source>(+%n queued)</source>
        <translation><numerusform>(+%n en cola)</numerusform><numerusform>(+%n en cola)</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop/indexing_controller.py" line="70" />
        <source>Cancelled</source>
        <translation>Cancelado</translation>
    </message>
    <message>
        <location filename="../../desktop/indexing_controller.py" line="70" />
        <source>Indexed</source>
        <translation>Indexado</translation>
    </message>
    <message>
        <location filename="../../desktop/indexing_controller.py" line="71" />
        <source>{state}: {new} new or changed, {same} unchanged, {removed} removed, {failed} failed ({s} s)</source>
        <translation>{state}: {new} nuevos o modificados, {same} sin cambios, {removed} quitados, {failed} con error ({s} s)</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/indexing_controller.py" line="268" />
        <source>Chunks: %n</source>
        <translation><numerusform>Fragmentos: %n</numerusform><numerusform>Fragmentos: %n</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop/indexing_controller.py" line="283" />
        <source>Add folder to index</source>
        <translation>Añadir una carpeta al índice</translation>
    </message>
    <message>
        <location filename="../../desktop/indexing_controller.py" line="298" />
        <source>Rebuild the index?</source>
        <translation>¿Reconstruir el índice?</translation>
    </message>
    <message>
        <location filename="../../desktop/indexing_controller.py" line="300" />
        <source>This workspace was indexed with other settings (embedding model or chunking). Its vectors cannot be mixed with new ones: rebuild it to use it. Rebuilding re-reads every document and may take a while.</source>
        <translation>Este espacio de trabajo se indexó con otros ajustes (modelo de vectores o fragmentación). Sus vectores no pueden mezclarse con los nuevos: reconstrúyalo para usarlo. La reconstrucción vuelve a leer todos los documentos y puede tardar un rato.</translation>
    </message>
    <message>
        <location filename="../../desktop/indexing_controller.py" line="304" />
        <source>Rebuild</source>
        <translation>Reconstruir</translation>
    </message>
    <message>
        <location filename="../../desktop/indexing_controller.py" line="340" />
        <source>Rebuilding the index…</source>
        <translation>Reconstruyendo el índice…</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../desktop/main_window.py" line="300" />
        <source>&amp;File</source>
        <translation>&amp;Archivo</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="304" />
        <source>New workspace…</source>
        <translation>Nuevo espacio de trabajo…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="304" />
        <source>Add folder…</source>
        <translation>Añadir carpeta…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="305" />
        <source>Export conversation as Markdown…</source>
        <translation>Exportar la conversación como Markdown…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="305" />
        <source>Export conversation as PDF…</source>
        <translation>Exportar la conversación como PDF…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="306" />
        <source>Settings…</source>
        <translation>Preferencias…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="306" />
        <source>Quit</source>
        <translation>Salir</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="301" />
        <source>&amp;Edit</source>
        <translation>&amp;Editar</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="307" />
        <source>Copy answer with citations</source>
        <translation>Copiar la respuesta con sus citas</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="307" />
        <source>Find in document</source>
        <translation>Buscar en el documento</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="302" />
        <source>&amp;Help</source>
        <translation>A&amp;yuda</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="308" />
        <source>New conversation</source>
        <translation>Nueva conversación</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="309" />
        <source>Getting started</source>
        <translation>Primeros pasos</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="310" />
        <source>Review grid…</source>
        <translation>Tabla de revisión…</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="462" />
        <source>Answer copied with its citations.</source>
        <translation>Respuesta copiada con sus citas.</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="476" />
        <source>Exported to {path}</source>
        <translation>Exportado a {path}</translation>
    </message>
    <message>
        <location filename="../../desktop/main_window.py" line="481" />
        <source>Export conversation</source>
        <translation>Exportar la conversación</translation>
    </message>
</context>
<context>
    <name>OllamaTexts</name>
    <message>
        <location filename="../../desktop/ollama_texts.py" line="17" />
        <source>Ollama is not running at {host} ({error}). Start it with: ollama serve</source>
        <translation>Ollama no está en marcha en {host} ({error}). Arránquelo con: ollama serve</translation>
    </message>
    <message>
        <location filename="../../desktop/ollama_texts.py" line="18" />
        <source>Ollama at {host} did not answer ({error}). Check that the machine is on, that Ollama there listens on the network (OLLAMA_HOST=0.0.0.0) and that no firewall blocks port {port}.</source>
        <translation>Ollama en {host} no respondió ({error}). Compruebe que la máquina está encendida, que Ollama escucha allí en la red (OLLAMA_HOST=0.0.0.0) y que ningún cortafuegos bloquea el puerto {port}.</translation>
    </message>
    <message>
        <location filename="../../desktop/ollama_texts.py" line="19" />
        <source>Ollama at {host} has no model '{model}'. Install it with: ollama pull {model}</source>
        <translation>Ollama en {host} no tiene el modelo '{model}'. Instálelo con: ollama pull {model}</translation>
    </message>
    <message>
        <location filename="../../desktop/ollama_texts.py" line="20" />
        <source>Ollama at {host} has no model '{model}'. Install it on that machine (ollama pull {model}) or choose one of its models.</source>
        <translation>Ollama en {host} no tiene el modelo '{model}'. Instálelo en esa máquina (ollama pull {model}) o elija uno de sus modelos.</translation>
    </message>
    <message>
        <location filename="../../desktop/ollama_texts.py" line="21" />
        <source>{host} answered HTTP 404 to /api/tags: it is not an Ollama server, or not its address. Check the host and port (Ollama's default port is 11434).</source>
        <translation>{host} respondió HTTP 404 a /api/tags: no es un servidor Ollama, o no es su dirección. Compruebe el host y el puerto (el puerto predeterminado de Ollama es 11434).</translation>
    </message>
    <message>
        <location filename="../../desktop/ollama_texts.py" line="22" />
        <source>Ollama at {host} answered HTTP {status} ({error}). Restart it: ollama serve</source>
        <translation>Ollama en {host} respondió HTTP {status} ({error}). Reinícielo: ollama serve</translation>
    </message>
    <message>
        <location filename="../../desktop/ollama_texts.py" line="23" />
        <source>Ollama at {host} answered HTTP {status} ({error}). Check the Ollama server on that machine.</source>
        <translation>Ollama en {host} respondió HTTP {status} ({error}). Revise el servidor Ollama en esa máquina.</translation>
    </message>
    <message>
        <location filename="../../desktop/ollama_texts.py" line="24" />
        <source>{host} answered, but not as Ollama does. Check the host and port.</source>
        <translation>{host} respondió, pero no como lo hace Ollama. Compruebe el host y el puerto.</translation>
    </message>
    <message>
        <location filename="../../desktop/ollama_texts.py" line="25" />
        <source>Ollama at {host} has no models installed (ollama pull &lt;model&gt;).</source>
        <translation>Ollama en {host} no tiene modelos instalados (ollama pull &lt;modelo&gt;).</translation>
    </message>
    <message>
        <location filename="../../desktop/ollama_texts.py" line="26" />
        <source>Automatic: answered with passages (no model). {reason}</source>
        <translation>Automático: respondido con pasajes (sin modelo). {reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/ollama_texts.py" line="27" />
        <source>Ollama did not answer with the model when the question was asked.</source>
        <translation>Ollama no respondió con el modelo cuando se hizo la pregunta.</translation>
    </message>
    <message>
        <location filename="../../desktop/ollama_texts.py" line="30" />
        <source>connection refused</source>
        <extracomment>Network error names core.ollama_check reports.</extracomment>
        <translation>conexión rechazada</translation>
    </message>
    <message>
        <location filename="../../desktop/ollama_texts.py" line="31" />
        <source>timed out</source>
        <translation>tiempo de espera agotado</translation>
    </message>
    <message>
        <location filename="../../desktop/ollama_texts.py" line="32" />
        <source>host name not found</source>
        <translation>nombre de host no encontrado</translation>
    </message>
    <message>
        <location filename="../../desktop/ollama_texts.py" line="33" />
        <source>network unreachable</source>
        <translation>red inaccesible</translation>
    </message>
</context>
<context>
    <name>Plurals</name>
    <message numerus="yes">
        <location filename="../../desktop/texts.py" line="25" />
        <source>%n sentence(s) removed</source>
        <translation><numerusform>%n frase eliminada</numerusform><numerusform>%n frases eliminadas</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/texts.py" line="29" />
        <source>%n citation(s) dropped</source>
        <translation><numerusform>%n cita descartada</numerusform><numerusform>%n citas descartadas</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/texts.py" line="33" />
        <source>Reading %n passage(s)…</source>
        <translation><numerusform>Leyendo %n pasaje…</numerusform><numerusform>Leyendo %n pasajes…</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/texts.py" line="37" />
        <source>Generating the answer — %n token(s) so far…</source>
        <translation><numerusform>Generando la respuesta — %n token hasta ahora…</numerusform><numerusform>Generando la respuesta — %n tokens hasta ahora…</numerusform></translation>
    </message>
</context>
<context>
    <name>Render</name>
    <message>
        <location filename="../../desktop/render.py" line="439" />
        <source>the document changed since this answer</source>
        <translation>el documento cambió después de esta respuesta</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="440" />
        <source>Searched for</source>
        <translation>Se buscó</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="441" />
        <source>Documents consulted</source>
        <translation>Documentos consultados</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="442" />
        <source>pages</source>
        <translation>páginas</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="443" />
        <source>No document matched the question.</source>
        <translation>Ningún documento coincidió con la pregunta.</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="444" />
        <source>some sentences were removed because no quote could be verified.</source>
        <translation>se quitaron algunas frases porque no se pudo verificar ninguna cita.</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="445" />
        <source>Sources</source>
        <translation>Fuentes</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="446" />
        <source>OCR — check the page</source>
        <translation>OCR — compruebe la página</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="447" />
        <source>changed since this answer</source>
        <translation>cambió después de esta respuesta</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="448" />
        <location filename="../../desktop/render_places.py" line="41" />
        <source>page</source>
        <translation>página</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="463" />
        <source>Read together with the previous question: “{previous}”</source>
        <translation>Leída junto con la pregunta anterior: «{previous}»</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="464" />
        <source>Read as: {rewrite}</source>
        <translation>Leída como: {rewrite}</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="465" />
        <source>{question} (with the previous question: {previous})</source>
        <translation>{question} (junto con la pregunta anterior: {previous})</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="466" />
        <source>search as I wrote it</source>
        <translation>buscar tal como la escribí</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="471" />
        <source>No evidence in the documents</source>
        <translation>Sin pruebas en los documentos</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="457" />
        <source>hide</source>
        <translation>ocultar</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="429" />
        <source>Passages that match your question — not an answer written by a model</source>
        <extracomment>Names of the languages core detects (``core.translate``), as they read inside a sentence.</extracomment>
        <translation>Pasajes que coinciden con su pregunta — no es una respuesta escrita por un modelo</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="430" />
        <source>Verifying each sentence as the model writes…</source>
        <translation>Verificando cada frase mientras el modelo escribe…</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="431" />
        <source>{n} verified so far</source>
        <translation>{n} verificadas hasta ahora</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="432" />
        <source>Show matching passages</source>
        <translation>Mostrar los pasajes que coinciden</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="433" />
        <source>Closest passages (not an answer)</source>
        <translation>Pasajes más cercanos (no son una respuesta)</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="434" />
        <source>No passage scored high enough to answer. These came closest; the matching sentences are marked inside their clause. Read them before concluding that the documents are silent.</source>
        <translation>Ningún pasaje obtuvo la puntuación necesaria para responder. Estos son los más cercanos; las frases que coinciden están marcadas dentro de su cláusula. Léalos antes de concluir que los documentos no dicen nada.</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="435" />
        <source>weak</source>
        <translation>débil</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="436" />
        <source>weaker</source>
        <translation>más débil</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="437" />
        <source>Passages marked “weaker” score under what an answer needs: read them as the closest text, not as matches.</source>
        <translation>Los pasajes marcados como «más débil» no llegan a la puntuación que necesita una respuesta: léalos como el texto más cercano, no como coincidencias.</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="438" />
        <source>the sentences of the documents that match the question, without a model</source>
        <translation>las frases de los documentos que coinciden con la pregunta, sin modelo</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="449" />
        <source>verified: {kind} match</source>
        <translation>verificada: coincidencia {kind}</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="450" />
        <source>verified: {kind} match, {score}/100</source>
        <translation>verificada: coincidencia {kind}, {score}/100</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="451" />
        <source>exact</source>
        <translation>exacta</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="452" />
        <source>normalized</source>
        <translation>normalizada</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="453" />
        <source>fuzzy</source>
        <translation>aproximada</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="454" />
        <source>Workspace</source>
        <translation>Espacio de trabajo</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="455" />
        <source>Exported</source>
        <translation>Exportado</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="456" />
        <source>Asked</source>
        <translation>Preguntado</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="458" />
        <source>show why</source>
        <translation>ver por qué</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="459" />
        <source>Not verified</source>
        <translation>Sin verificar</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="460" />
        <source>(the whole answer)</source>
        <translation>(toda la respuesta)</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="461" />
        <source>citation dropped, sentence kept</source>
        <translation>cita descartada, frase conservada</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="462" />
        <source>sentence removed</source>
        <translation>frase quitada</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="467" />
        <source>search all documents</source>
        <translation>buscar en todos los documentos</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="468" />
        <source>Your question could mean any of {n} documents; searched in all of them: {names}</source>
        <translation>Su pregunta puede referirse a cualquiera de {n} documentos; se buscó en todos: {names}</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="469" />
        <source>Searched in the documents you chose: {names}</source>
        <translation>Se buscó en los documentos que eligió: {names}</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="470" />
        <source>Searching in: {names} (the document your question names)</source>
        <translation>Buscando en: {names} (el documento que nombra su pregunta)</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="472" />
        <source>Your question is in {question} and the documents are in {documents}: the search by meaning cannot relate the two languages, so only keywords translated by the legal vocabulary were searched. Ask in the documents' language, or set up Ollama to translate the question.</source>
        <translation>La pregunta está en {question} y los documentos en {documents}: la búsqueda por significado no relaciona los dos idiomas, así que solo se buscaron las palabras clave traducidas por el vocabulario jurídico. Pregunte en el idioma de los documentos o configure Ollama para traducir la pregunta.</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="473" />
        <source>English</source>
        <translation>inglés</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="474" />
        <source>Spanish</source>
        <translation>español</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="475" />
        <source>CONFLICT</source>
        <translation>CONFLICTO</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="476" />
        <source>The cited passages disagree</source>
        <translation>Los pasajes citados no coinciden</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="477" />
        <source>What each passage says</source>
        <translation>Lo que dice cada pasaje</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="478" />
        <source>Verbatim gives no single answer: the passages below say different things about this question. Each sentence reports one passage; read them and decide.</source>
        <translation>Verbatim no da una única respuesta: los pasajes siguientes dicen cosas distintas sobre esta pregunta. Cada frase recoge un pasaje; léalos y decida.</translation>
    </message>
    <message>
        <location filename="../../desktop/render.py" line="479" />
        <source>The model reported that the documents disagree, but fewer than two verified passages show it; the verified sentences are shown as they are.</source>
        <translation>El modelo indicó que los documentos no coinciden, pero menos de dos pasajes verificados lo muestran; las frases verificadas se muestran tal cual.</translation>
    </message>
    <message>
        <location filename="../../desktop/render_collection.py" line="86" />
        <source>Each of the {n} documents was searched on its own; passages that match: {m}.</source>
        <translation>Se buscó en cada uno de los {n} documentos por separado; pasajes que coinciden: {m}.</translation>
    </message>
    <message>
        <location filename="../../desktop/render_collection.py" line="87" />
        <source>A matching passage must name {words} and say what the question asks.</source>
        <translation>Un pasaje que coincide debe nombrar {words} y decir lo que pregunta la pregunta.</translation>
    </message>
    <message>
        <location filename="../../desktop/render_collection.py" line="88" />
        <source>Documents that match</source>
        <translation>Documentos que coinciden</translation>
    </message>
    <message>
        <location filename="../../desktop/render_collection.py" line="89" />
        <source>Searched, no matching passage</source>
        <translation>Buscados, sin pasaje que coincida</translation>
    </message>
    <message>
        <location filename="../../desktop/render_collection.py" line="90" />
        <source>closest, not an answer</source>
        <translation>el más cercano, no es una respuesta</translation>
    </message>
    <message>
        <location filename="../../desktop/render_collection.py" line="91" />
        <source>{n} more documents were not searched (at most {max} per question); the review grid searches them all.</source>
        <translation>No se buscó en {n} documentos más (como máximo {max} por pregunta); la tabla de revisión los recorre todos.</translation>
    </message>
    <message>
        <location filename="../../desktop/render_places.py" line="42" />
        <source>p. {label} (PDF page {page})</source>
        <translation>p. {label} (página {page} del PDF)</translation>
    </message>
    <message>
        <location filename="../../desktop/render_places.py" line="43" />
        <source>pp. {first}–{last} (PDF pages {pages})</source>
        <translation>pp. {first}–{last} (páginas {pages} del PDF)</translation>
    </message>
    <message>
        <location filename="../../desktop/render_places.py" line="44" />
        <source>pages {pages}</source>
        <translation>páginas {pages}</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../desktop/settings_dialog.py" line="66" />
        <source>Settings</source>
        <translation>Preferencias</translation>
    </message>
    <message>
        <location filename="../../desktop/settings_dialog.py" line="76" />
        <source>Answer with</source>
        <translation>Responder con</translation>
    </message>
    <message>
        <location filename="../../desktop/settings_dialog.py" line="77" />
        <source>Ollama host</source>
        <translation>Servidor de Ollama</translation>
    </message>
    <message>
        <location filename="../../desktop/settings_dialog.py" line="78" />
        <location filename="../../desktop/settings_dialog.py" line="131" />
        <source>Ollama model</source>
        <translation>Modelo de Ollama</translation>
    </message>
    <message>
        <location filename="../../desktop/settings_dialog.py" line="79" />
        <location filename="../../desktop/settings_dialog.py" line="247" />
        <source>Embedding model folder</source>
        <translation>Carpeta del modelo de embeddings</translation>
    </message>
    <message>
        <location filename="../../desktop/settings_dialog.py" line="80" />
        <source>Passages given to the model (top-k)</source>
        <translation>Pasajes que recibe el modelo (top-k)</translation>
    </message>
    <message>
        <location filename="../../desktop/settings_dialog.py" line="81" />
        <source>Fuzzy match threshold (0–100)</source>
        <translation>Umbral de coincidencia aproximada (0–100)</translation>
    </message>
    <message>
        <location filename="../../desktop/settings_dialog.py" line="82" />
        <location filename="../../desktop/settings_dialog.py" line="83" />
        <source>OCR languages</source>
        <translation>Idiomas de OCR</translation>
    </message>
    <message>
        <location filename="../../desktop/settings_dialog.py" line="84" />
        <source>Read scanned pages with OCR</source>
        <translation>Leer páginas escaneadas con OCR</translation>
    </message>
    <message>
        <location filename="../../desktop/settings_dialog.py" line="85" />
        <source>Window language</source>
        <translation>Idioma de la ventana</translation>
    </message>
    <message>
        <location filename="../../desktop/settings_dialog.py" line="86" />
        <source>Re-index when files in the folders change</source>
        <translation>Reindexar cuando cambien archivos de las carpetas</translation>
    </message>
    <message>
        <location filename="../../desktop/settings_dialog.py" line="98" />
        <source>Refresh</source>
        <translation>Actualizar</translation>
    </message>
    <message>
        <location filename="../../desktop/settings_dialog.py" line="103" />
        <source>Bundled model: {name} (English)</source>
        <translation>Modelo incluido: {name} (inglés)</translation>
    </message>
    <message>
        <location filename="../../desktop/settings_dialog.py" line="104" />
        <source>Browse…</source>
        <translation>Examinar…</translation>
    </message>
    <message>
        <location filename="../../desktop/settings_dialog.py" line="114" />
        <source>Validation errors</source>
        <translation>Errores de validación</translation>
    </message>
    <message>
        <location filename="../../desktop/settings_dialog.py" line="129" />
        <source>System language</source>
        <translation>Idioma del sistema</translation>
    </message>
    <message>
        <location filename="../../desktop/settings_dialog.py" line="130" />
        <source>Automatic (the Ollama model when it answers, else passages)</source>
        <translation>Automático (el modelo de Ollama si responde; si no, pasajes)</translation>
    </message>
    <message>
        <location filename="../../desktop/settings_dialog.py" line="131" />
        <source>Passages only (no model)</source>
        <translation>Solo pasajes (sin modelo)</translation>
    </message>
    <message>
        <location filename="../../desktop/settings_dialog.py" line="132" />
        <source>Embedded demo model</source>
        <translation>Modelo integrado de demostración</translation>
    </message>
    <message>
        <location filename="../../desktop/settings_dialog.py" line="133" />
        <source>Off</source>
        <translation>Desactivado</translation>
    </message>
    <message>
        <location filename="../../desktop/settings_dialog.py" line="133" />
        <source>The Ollama model as a judge</source>
        <translation>El modelo de Ollama como juez</translation>
    </message>
    <message>
        <location filename="../../desktop/settings_dialog.py" line="198" />
        <source>Ollama host must start with http:// or https://</source>
        <translation>El servidor de Ollama debe empezar por http:// o https://</translation>
    </message>
    <message>
        <location filename="../../desktop/settings_dialog.py" line="217" />
        <source>Asking Ollama for its models…</source>
        <translation>Preguntando a Ollama por sus modelos…</translation>
    </message>
    <message>
        <location filename="../../desktop/settings_dialog.py" line="242" />
        <source>Ollama not reachable; type a model name.</source>
        <translation>Ollama no está disponible; escriba el nombre de un modelo.</translation>
    </message>
</context>
<context>
    <name>StatusController</name>
    <message>
        <location filename="../../desktop/status_controller.py" line="47" />
        <source>Engine state</source>
        <translation>Estado del motor</translation>
    </message>
    <message>
        <location filename="../../desktop/status_controller.py" line="62" />
        <source>Chunks: —</source>
        <translation>Fragmentos: —</translation>
    </message>
    <message>
        <location filename="../../desktop/status_controller.py" line="109" />
        <source>Ollama: checking…</source>
        <translation>Ollama: comprobando…</translation>
    </message>
    <message>
        <location filename="../../desktop/status_controller.py" line="111" />
        <source>Ollama: reachable</source>
        <translation>Ollama: disponible</translation>
    </message>
    <message>
        <location filename="../../desktop/status_controller.py" line="111" />
        <source>Ollama: not reachable</source>
        <translation>Ollama: no disponible</translation>
    </message>
    <message>
        <location filename="../../desktop/status_controller.py" line="124" />
        <location filename="../../desktop/status_controller.py" line="142" />
        <source>Answer with: {backend}</source>
        <translation>Responder con: {backend}</translation>
    </message>
    <message>
        <location filename="../../desktop/status_controller.py" line="126" />
        <location filename="../../desktop/status_controller.py" line="136" />
        <location filename="../../desktop/status_controller.py" line="139" />
        <source>Model: {backend} ({model})</source>
        <translation>Modelo: {backend} ({model})</translation>
    </message>
    <message>
        <location filename="../../desktop/status_controller.py" line="129" />
        <source>Model: not called</source>
        <translation>Modelo: no se llamó</translation>
    </message>
    <message>
        <location filename="../../desktop/status_controller.py" line="132" />
        <source>Model: —</source>
        <translation>Modelo: —</translation>
    </message>
    <message>
        <location filename="../../desktop/status_controller.py" line="140" />
        <source>demo model</source>
        <translation>modelo de demostración</translation>
    </message>
    <message>
        <location filename="../../desktop/status_controller.py" line="184" />
        <source>Engine: in this process</source>
        <translation>Motor: en este proceso</translation>
    </message>
    <message>
        <location filename="../../desktop/status_controller.py" line="185" />
        <source>Engine: loading…</source>
        <translation>Motor: cargando…</translation>
    </message>
    <message>
        <location filename="../../desktop/status_controller.py" line="186" />
        <source>Engine: ready</source>
        <translation>Motor: listo</translation>
    </message>
    <message>
        <location filename="../../desktop/status_controller.py" line="187" />
        <source>Engine: failed to start</source>
        <translation>Motor: no pudo arrancar</translation>
    </message>
    <message>
        <location filename="../../desktop/status_controller.py" line="188" />
        <source>Engine: stopped</source>
        <translation>Motor: detenido</translation>
    </message>
    <message>
        <location filename="../../desktop/status_controller.py" line="192" />
        <source>Loading the search libraries and the embedding model in the background; the window is usable meanwhile.</source>
        <translation>Cargando en segundo plano las bibliotecas de búsqueda y el modelo de embeddings; mientras tanto la ventana se puede usar.</translation>
    </message>
    <message>
        <location filename="../../desktop/status_controller.py" line="195" />
        <source>Engine process {pid}; loaded in {s} s</source>
        <translation>Proceso del motor {pid}; cargado en {s} s</translation>
    </message>
</context>
<context>
    <name>Texts</name>
    <message>
        <location filename="../../desktop/texts.py" line="201" />
        <source>This workspace is still being indexed: no text can be searched yet. Ask again when indexing finishes.</source>
        <extracomment>The window's own abstention message for a question asked while the workspace's first index is still being written (core says "no indexed text yet … scanned pages need OCR", issue #24).</extracomment>
        <translation>Este espacio de trabajo todavía se está indexando: aún no se puede buscar ningún texto. Vuelva a preguntar cuando termine la indexación.</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="206" />
        <source>This workspace has no indexed text yet: index a folder with documents that contain text (scanned pages need OCR).</source>
        <translation>Este espacio de trabajo aún no tiene texto indexado: indexe una carpeta con documentos que contengan texto (las páginas escaneadas necesitan OCR).</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="207" />
        <source>Nothing in this workspace matches the question; no document was given to the model.</source>
        <translation>Nada en este espacio de trabajo coincide con la pregunta; no se dio ningún documento al modelo.</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="208" />
        <source>The question is too long for the model's context window.</source>
        <translation>La pregunta es demasiado larga para la ventana de contexto del modelo.</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="209" />
        <source>The model's answer was cut off at its token limit; no answer can be shown.</source>
        <translation>La respuesta del modelo se cortó en su límite de tokens; no se puede mostrar ninguna respuesta.</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="210" />
        <source>The model's output was not valid twice; no answer can be shown.</source>
        <translation>La salida del modelo no fue válida dos veces; no se puede mostrar ninguna respuesta.</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="211" />
        <source>The model found no answer in the passages consulted.</source>
        <translation>El modelo no encontró respuesta en los pasajes consultados.</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="212" />
        <source>The model answered, but its sentences state figures that its quotes do not contain.</source>
        <translation>El modelo respondió, pero sus frases dan cifras que sus citas no contienen.</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="213" />
        <source>The model answered, but its sentences negate what its quotes state, or the reverse.</source>
        <translation>El modelo respondió, pero sus frases niegan lo que dicen sus citas, o al revés.</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="214" />
        <source>The model answered, but its quotes do not support its sentences.</source>
        <translation>El modelo respondió, pero sus citas no respaldan sus frases.</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="215" />
        <source>The model answered, but none of its quotes could be found in the cited passages.</source>
        <translation>El modelo respondió, pero ninguna de sus citas se encontró en los pasajes citados.</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="216" />
        <source>No passage of the documents matches the question closely enough.</source>
        <translation>Ningún pasaje de los documentos coincide lo bastante con la pregunta.</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="217" />
        <source>No passage clearly answers the question. The closest passages are shown below, marked as weak: they are not an answer.</source>
        <translation>Ningún pasaje responde claramente a la pregunta. Abajo se muestran los pasajes más cercanos, marcados como débiles: no son una respuesta.</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="218" />
        <source>None of the documents searched has a passage that matches the question.</source>
        <translation>Ninguno de los documentos buscados tiene un pasaje que responda a la pregunta.</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="233" />
        <source>Waiting for the engine to load the search libraries…</source>
        <translation>Esperando a que el motor cargue las bibliotecas de búsqueda…</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="234" />
        <source>Searching the documents…</source>
        <translation>Buscando en los documentos…</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="235" />
        <source>Reading the question in the light of the conversation…</source>
        <translation>Leyendo la pregunta a la luz de la conversación…</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="236" />
        <source>Loading the model…</source>
        <translation>Cargando el modelo…</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="237" />
        <source>Generating the answer…</source>
        <translation>Generando la respuesta…</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="238" />
        <source>Choosing the passages that match…</source>
        <translation>Eligiendo los pasajes que coinciden…</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="239" />
        <source>Verifying every quote…</source>
        <translation>Verificando cada cita…</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="240" />
        <source>Searching each document on its own ({done} of {total})…</source>
        <translation>Buscando en cada documento por separado ({done} de {total})…</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="241" />
        <source>cites a passage that was not given to the model</source>
        <translation>cita un pasaje que no se entregó al modelo</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="242" />
        <source>quote too short to check</source>
        <translation>cita demasiado corta para comprobarla</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="243" />
        <source>quote comes from a different passage than the one cited</source>
        <translation>la cita procede de un pasaje distinto del citado</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="244" />
        <source>quote not found in the cited passage</source>
        <translation>la cita no aparece en el pasaje citado</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="245" />
        <source>no verified quote left for this sentence</source>
        <translation>no queda ninguna cita verificada para esta frase</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="246" />
        <source>the model's output was not valid</source>
        <translation>la salida del modelo no era válida</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="247" />
        <source>a number, date or name in the sentence is not in its quote</source>
        <translation>un número, fecha o nombre de la frase no está en su cita</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="248" />
        <source>the sentence negates what its quote says, or the reverse</source>
        <translation>la frase niega lo que dice su cita, o al revés</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="249" />
        <source>its only quote is a heading, a defined term or a clause number</source>
        <translation>su única cita es un título, un término definido o un número de cláusula</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="250" />
        <source>the quoted date reads differently day-first and month-first</source>
        <translation>la fecha citada se lee distinto con el día o con el mes primero</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="251" />
        <source>number not in quote</source>
        <translation>el número no está en la cita</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="252" />
        <source>not verified ({reason})</source>
        <translation>sin verificar ({reason})</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="253" />
        <source>check the quote: the sentence may state the opposite of it</source>
        <translation>compruebe la cita: la frase podría decir lo contrario</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="254" />
        <source>check the quote ({reason})</source>
        <translation>compruebe la cita ({reason})</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="255" />
        <source>indexed</source>
        <translation>indexado</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="256" />
        <source>superseded</source>
        <translation>sustituido</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="257" />
        <source>quarantined</source>
        <translation>en cuarentena</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="258" />
        <source>failed</source>
        <translation>error</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="259" />
        <source>needs OCR</source>
        <translation>necesita OCR</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="260" />
        <source>not followed</source>
        <translation>no seguido</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="261" />
        <source>the model's answer was cut off at its token limit</source>
        <translation>la respuesta del modelo se cortó en su límite de tokens</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="262" />
        <source>the quote does not support the sentence</source>
        <translation>la cita no respalda la frase</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="263" />
        <source>queued</source>
        <translation>en cola</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="264" />
        <source>indexing…</source>
        <translation>indexando…</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="265" />
        <source>Looking for files…</source>
        <translation>Buscando archivos…</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="266" />
        <source>Reading {name}</source>
        <translation>Leyendo {name}</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="267" />
        <source>Embedding {name}: {done} of {total} chunks</source>
        <translation>Vectorizando {name}: {done} de {total} fragmentos</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="268" />
        <source>Embedding {name}</source>
        <translation>Vectorizando {name}</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="269" />
        <source>Saving to the index…</source>
        <translation>Guardando en el índice…</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="270" />
        <source>Finishing…</source>
        <translation>Terminando…</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="271" />
        <source>estimating…</source>
        <translation>calculando…</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="272" />
        <source>about {t} left</source>
        <translation>quedan unos {t}</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="273" />
        <source>embedded</source>
        <translation>integrado</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="274" />
        <source>passages (no model)</source>
        <translation>pasajes (sin modelo)</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="275" />
        <source>scripted</source>
        <translation>guionizado</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="276" />
        <source>Answered</source>
        <translation>Respondida</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="277" />
        <source>sentence scoring (embeddings + BM25 terms)</source>
        <translation>puntuación de oraciones (embeddings + términos BM25)</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="278" />
        <source>Partial answer</source>
        <translation>Respuesta parcial</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="279" />
        <source>No verified answer</source>
        <translation>Sin respuesta verificada</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="285" />
        <source>The question is in {question} and the documents are in {documents}: the meaning-based search model does not relate the two languages, so only keywords translated by the legal vocabulary were searched. Ask in the documents' language, or configure Ollama to translate the question.</source>
        <translation>La pregunta está en {question} y los documentos en {documents}: el modelo de búsqueda por significado no relaciona los dos idiomas, y solo se buscaron las palabras clave traducidas por el vocabulario jurídico. Pregunte en el idioma de los documentos, o configure Ollama para traducir la pregunta.</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="287" />
        <source>English</source>
        <translation>inglés</translation>
    </message>
    <message>
        <location filename="../../desktop/texts.py" line="287" />
        <source>Spanish</source>
        <translation>español</translation>
    </message>
</context>
<context>
    <name>WatchController</name>
    <message>
        <location filename="../../desktop/watch_controller.py" line="165" />
        <source>Checking for changes made while Verbatim was closed…</source>
        <translation>Buscando cambios hechos mientras Verbatim estaba cerrado…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/watch_controller.py" line="171" />
        <source>%n file(s) changed: updating the index…</source>
        <translation><numerusform>%n archivo cambió: actualizando el índice…</numerusform><numerusform>%n archivos cambiaron: actualizando el índice…</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop/watch_controller.py" line="178" />
        <source>Folder watching stopped for {name}: {error}</source>
        <translation>Se dejó de vigilar las carpetas de {name}: {error}</translation>
    </message>
</context>
<context>
    <name>WelcomeView</name>
    <message>
        <location filename="../../desktop/welcome.py" line="64" />
        <source>Welcome to Verbatim</source>
        <translation>Bienvenido a Verbatim</translation>
    </message>
    <message>
        <location filename="../../desktop/welcome.py" line="66" />
        <source>Ask questions about your own documents, fully offline. Every sentence of an answer is proven by a quote that Verbatim found, character for character, in your files; when the documents do not say it, Verbatim says so instead of guessing.</source>
        <translation>Haga preguntas sobre sus propios documentos, sin conexión. Cada frase de una respuesta se demuestra con una cita que Verbatim encontró, carácter a carácter, en sus archivos; cuando los documentos no lo dicen, Verbatim lo indica en lugar de adivinar.</translation>
    </message>
    <message>
        <location filename="../../desktop/welcome.py" line="79" />
        <location filename="../../desktop/welcome.py" line="80" />
        <source>Try the sample documents</source>
        <translation>Probar con los documentos de ejemplo</translation>
    </message>
    <message>
        <location filename="../../desktop/welcome.py" line="81" />
        <source>Create a workspace…</source>
        <translation>Crear un espacio de trabajo…</translation>
    </message>
    <message>
        <location filename="../../desktop/welcome.py" line="82" />
        <location filename="../../desktop/welcome.py" line="127" />
        <source>Create a workspace</source>
        <translation>Cree un espacio de trabajo</translation>
    </message>
    <message>
        <location filename="../../desktop/welcome.py" line="85" />
        <location filename="../../desktop/welcome.py" line="100" />
        <source>Looking for Ollama…</source>
        <translation>Buscando Ollama…</translation>
    </message>
    <message>
        <location filename="../../desktop/welcome.py" line="104" />
        <source>Answers come from the model “{model}” if it is installed there.</source>
        <translation>Las respuestas las da el modelo «{model}» si está instalado allí.</translation>
    </message>
    <message>
        <location filename="../../desktop/welcome.py" line="110" />
        <source>Answers come from the small embedded demo model, which is slow and often abstains. For real use install Ollama from ollama.com, then run:</source>
        <translation>Las respuestas las da el pequeño modelo de demostración integrado, que es lento y a menudo se abstiene. Para un uso real instale Ollama desde ollama.com y ejecute:</translation>
    </message>
    <message>
        <location filename="../../desktop/welcome.py" line="117" />
        <source>Answers are the passages of your documents that match the question, each one highlighted on its page; no model writes anything. For answers written by a model, install Ollama from ollama.com, then run:</source>
        <translation>Las respuestas son los pasajes de sus documentos que coinciden con la pregunta, cada uno resaltado en su página; ningún modelo escribe nada. Para respuestas escritas por un modelo, instale Ollama desde ollama.com y ejecute:</translation>
    </message>
    <message>
        <location filename="../../desktop/welcome.py" line="128" />
        <source>one per client, matter or project; answers never mix workspaces.</source>
        <translation>uno por cliente, asunto o proyecto; las respuestas nunca mezclan espacios de trabajo.</translation>
    </message>
    <message>
        <location filename="../../desktop/welcome.py" line="129" />
        <source>Add folders</source>
        <translation>Añada carpetas</translation>
    </message>
    <message>
        <location filename="../../desktop/welcome.py" line="130" />
        <source>PDF and text files are read and indexed on this computer.</source>
        <translation>los PDF y archivos de texto se leen e indexan en este ordenador.</translation>
    </message>
    <message>
        <location filename="../../desktop/welcome.py" line="131" />
        <source>Ask</source>
        <translation>Preguntar</translation>
    </message>
    <message>
        <location filename="../../desktop/welcome.py" line="132" />
        <source>click a citation number to see the quoted passage highlighted on its page.</source>
        <translation>pulse un número de cita para ver el pasaje citado resaltado en su página.</translation>
    </message>
    <message>
        <location filename="../../desktop/welcome.py" line="133" />
        <source>Ollama found</source>
        <translation>Ollama encontrado</translation>
    </message>
    <message>
        <location filename="../../desktop/welcome.py" line="134" />
        <source>Ollama not found</source>
        <translation>Ollama no encontrado</translation>
    </message>
</context>
<context>
    <name>WorkspaceController</name>
    <message numerus="yes">
        <location filename="../../desktop/workspace_controller.py" line="202" />
        <source>Chunks: %n</source>
        <translation><numerusform>Fragmentos: %n</numerusform><numerusform>Fragmentos: %n</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop/workspace_controller.py" line="221" />
        <source>New workspace</source>
        <translation>Nuevo espacio de trabajo</translation>
    </message>
    <message>
        <location filename="../../desktop/workspace_controller.py" line="222" />
        <source>Name (for example the client or matter):</source>
        <translation>Nombre (por ejemplo el cliente o el asunto):</translation>
    </message>
    <message>
        <location filename="../../desktop/workspace_controller.py" line="236" />
        <source>Rename workspace</source>
        <translation>Renombrar espacio de trabajo</translation>
    </message>
    <message>
        <location filename="../../desktop/workspace_controller.py" line="236" />
        <source>New name:</source>
        <translation>Nombre nuevo:</translation>
    </message>
    <message>
        <location filename="../../desktop/workspace_controller.py" line="244" />
        <source>Wait for indexing or answering to finish before renaming.</source>
        <translation>Espere a que termine la indexación o la respuesta antes de renombrar.</translation>
    </message>
    <message>
        <location filename="../../desktop/workspace_controller.py" line="260" />
        <source>Delete workspace</source>
        <translation>Eliminar espacio de trabajo</translation>
    </message>
    <message>
        <location filename="../../desktop/workspace_controller.py" line="261" />
        <source>Delete workspace “{name}”? Its index and question history are removed; your documents stay where they are.</source>
        <translation>¿Eliminar el espacio de trabajo «{name}»? Se borran su índice y su historial de preguntas; sus documentos se quedan donde están.</translation>
    </message>
    <message>
        <location filename="../../desktop/workspace_controller.py" line="304" />
        <source>Reason</source>
        <translation>Motivo</translation>
    </message>
    <message>
        <location filename="../../desktop/workspace_controller.py" line="304" />
        <source>Why (shown beside the document):</source>
        <translation>Por qué (se muestra junto al documento):</translation>
    </message>
</context>
<context>
    <name>WorkspacesPanel</name>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="195" />
        <location filename="../../desktop/workspaces_panel.py" line="196" />
        <source>Workspaces</source>
        <translation>Espacios de trabajo</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="197" />
        <source>New…</source>
        <translation>Nuevo…</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="198" />
        <source>Rename…</source>
        <translation>Renombrar…</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="199" />
        <source>Delete…</source>
        <translation>Eliminar…</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="200" />
        <source>New workspace</source>
        <translation>Nuevo espacio de trabajo</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="200" />
        <source>Rename workspace</source>
        <translation>Renombrar espacio de trabajo</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="201" />
        <source>Delete workspace</source>
        <translation>Eliminar espacio de trabajo</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="203" />
        <location filename="../../desktop/workspaces_panel.py" line="204" />
        <source>Folders</source>
        <translation>Carpetas</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="205" />
        <source>Add folder…</source>
        <translation>Añadir carpeta…</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="206" />
        <source>Index a folder (or drop folders onto the window)</source>
        <translation>Indexar una carpeta (o suelte carpetas sobre la ventana)</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="207" />
        <source>Remove folder</source>
        <translation>Quitar carpeta</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="208" />
        <location filename="../../desktop/workspaces_panel.py" line="215" />
        <source>Documents</source>
        <translation>Documentos</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="209" />
        <source>Document</source>
        <translation>Documento</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="209" />
        <source>Pages</source>
        <translation>Páginas</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="209" />
        <source>Status</source>
        <translation>Estado</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="210" />
        <source>Question history</source>
        <translation>Historial de preguntas</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="211" />
        <source>Delete</source>
        <translation>Eliminar</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="212" />
        <source>Delete this question from the history</source>
        <translation>Eliminar esta pregunta del historial</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="213" />
        <source>Delete all…</source>
        <translation>Eliminar todo…</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="214" />
        <source>Delete the whole history</source>
        <translation>Eliminar todo el historial</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="216" />
        <source>History</source>
        <translation>Historial</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="217" />
        <source>Indexing progress</source>
        <translation>Progreso de la indexación</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="218" />
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="219" />
        <source>Cancel indexing</source>
        <translation>Cancelar la indexación</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="301" />
        <source>{name} (being added)</source>
        <translation>{name} (añadiéndose)</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/workspaces_panel.py" line="344" />
        <location filename="../../desktop/workspaces_panel.py" line="401" />
        <source>%n chunk(s)</source>
        <translation><numerusform>%n fragmento</numerusform><numerusform>%n fragmentos</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="361" />
        <source>(page {page})</source>
        <translation>(página {page})</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/workspaces_panel.py" line="397" />
        <source>%n document(s)</source>
        <translation><numerusform>%n documento</numerusform><numerusform>%n documentos</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="404" />
        <source>last indexed {when}</source>
        <translation>indexado por última vez el {when}</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="405" />
        <source>never indexed</source>
        <translation>nunca indexado</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="415" />
        <source>document changed</source>
        <translation>documento modificado</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="449" />
        <source>Mark as active</source>
        <translation>Marcar como activo</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="449" />
        <source>Release from quarantine</source>
        <translation>Liberar de la cuarentena</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="450" />
        <source>Mark as superseded…</source>
        <translation>Marcar como sustituido…</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="451" />
        <source>Quarantine…</source>
        <translation>Poner en cuarentena…</translation>
    </message>
    <message>
        <location filename="../../desktop/workspaces_panel.py" line="481" />
        <source>{done} of {total} files</source>
        <translation>{done} de {total} archivos</translation>
    </message>
</context>
</TS>