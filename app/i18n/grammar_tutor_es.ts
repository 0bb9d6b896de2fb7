<?xml version='1.0' encoding='utf-8'?>
<!DOCTYPE TS>
<TS version="2.1" language="es">
<context>
    <name>Dashboard</name>
    <message>
        <location filename="../views/teacher.py" line="231" />
        <source>Lea&amp;rners:</source>
        <translation>Alu&amp;mnos:</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="232" />
        <source>Learners</source>
        <translation>Alumnos</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="233" />
        <source>Statistics</source>
        <translation>Estadísticas</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="234" />
        <source>History</source>
        <translation>Historial</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="235" />
        <source>Latency</source>
        <translation>Latencia</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="236" />
        <source>E&amp;xport CSV…</source>
        <translation>&amp;Exportar CSV…</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="237" />
        <source>Save the selected learner's history (or everyone's) as CSV</source>
        <translation>Guardar como CSV el historial del alumno elegido (o de todos)</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="238" />
        <source>Refre&amp;sh</source>
        <translation>Actuali&amp;zar</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="239" />
        <source>Loc&amp;k</source>
        <translation>&amp;Bloquear</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="241" />
        <location filename="../views/teacher.py" line="263" />
        <source>All learners</source>
        <translation>Todos los alumnos</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="296" />
        <source>Computing statistics…</source>
        <translation>Calculando las estadísticas…</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="310" />
        <source>reading the statistics</source>
        <translation>se leían las estadísticas</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="315" />
        <source>No mistakes yet.</source>
        <translation>Todavía no hay errores.</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="317" />
        <source>Mistakes per verb</source>
        <translation>Errores por verbo</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="318" />
        <location filename="../views/teacher.py" line="324" />
        <location filename="../views/teacher.py" line="330" />
        <location filename="../views/teacher.py" line="336" />
        <source>mistakes</source>
        <translation>errores</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="323" />
        <source>Mistakes per tense</source>
        <translation>Errores por tiempo verbal</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="329" />
        <source>Mistakes per person</source>
        <translation>Errores por persona</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="335" />
        <source>Corrections per week</source>
        <translation>Correcciones por semana</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="336" />
        <location filename="../views/teacher.py" line="373" />
        <source>corrections</source>
        <translation>correcciones</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="338" />
        <source>No corrections yet.</source>
        <translation>Todavía no hay correcciones.</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="344" />
        <source>No timings yet: correct a sentence first.</source>
        <translation>Todavía no hay tiempos: corrige primero una frase.</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="345" />
        <source>Masking time per token</source>
        <translation>Tiempo de máscara por token</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="345" />
        <location filename="../views/teacher.py" line="375" />
        <source>No timings yet.</source>
        <translation>Todavía no hay tiempos.</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="350" />
        <source>{0}: {1} corrections · mask p50 {2:.1f} µs/token, p99 {3:.1f} µs, max {4:.1f} µs</source>
        <translation>{0}: {1} correcciones · máscara p50 {2:.1f} µs/token, p99 {3:.1f} µs, máx. {4:.1f} µs</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="351" />
        <source>unknown model</source>
        <translation>modelo desconocido</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="372" />
        <source>Masking time per token (µs, median of each correction) · {0}</source>
        <translation>Tiempo de máscara por token (µs, mediana de cada corrección) · {0}</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="383" />
        <source>Export history as CSV</source>
        <translation>Exportar el historial como CSV</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="383" />
        <source>CSV files (*.csv)</source>
        <translation>Archivos CSV (*.csv)</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="395" />
        <source>Exporting…</source>
        <translation>Exportando…</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="401" />
        <source>Exported {0} corrections to {1}.</source>
        <translation>Se exportaron {0} correcciones a {1}.</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="406" />
        <source>exporting the history</source>
        <translation>se exportaba el historial</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="351" />
        <source>Change &amp;passphrase…</source>
        <translation>Cambiar la &amp;contraseña…</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="352" />
        <source>Set &amp;passphrase…</source>
        <translation>Establecer &amp;contraseña…</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="354" />
        <source>Not protected: no teacher passphrase is set, so anyone using this computer can open this page and export every learner's history. Set passphrase… protects it.</source>
        <translation>Sin protección: no hay contraseña de profesor, así que cualquiera que use este ordenador puede abrir esta página y exportar el historial de todos los alumnos. «Establecer contraseña…» la protege.</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="424" />
        <source>{0} corrections, all in the statistics</source>
        <translation>{0} correcciones, todas en las estadísticas</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="425" />
        <source>{0} corrections in the statistics; the history also lists {1} retries of past mistakes and findings I was not sure of</source>
        <translation>{0} correcciones en las estadísticas; el historial muestra además {1} reintentos de errores pasados y hallazgos de los que no estaba seguro</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="490" />
        <source>Time per correction</source>
        <translation>Tiempo por corrección</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="496" />
        <source>{0}: {1} corrections · {2:.0f} ms per correction (median), p99 {3:.0f} ms</source>
        <translation>{0}: {1} correcciones · {2:.0f} ms por corrección (mediana), p99 {3:.0f} ms</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="500" />
        <source>{0}: {1} corrections sampled under the mask · mask p50 {2:.1f} µs/token, p99 {3:.1f} µs, max {4:.1f} µs</source>
        <translation>{0}: {1} correcciones muestreadas bajo la máscara · máscara p50 {2:.1f} µs/token, p99 {3:.1f} µs, máx. {4:.1f} µs</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="517" />
        <source>Time per correction (ms) · {0}</source>
        <translation>Tiempo por corrección (ms) · {0}</translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <location filename="../errors.py" line="45" />
        <source>The sentence is empty: type one English sentence to correct.</source>
        <translation>La frase está vacía: escribe una frase en inglés para corregirla.</translation>
    </message>
    <message>
        <location filename="../errors.py" line="45" />
        <source>The text is empty: type or paste some English to check.</source>
        <translation>El texto está vacío: escribe o pega algo en inglés para revisarlo.</translation>
    </message>
    <message>
        <location filename="../errors.py" line="45" />
        <source>The sentence has no words: type one English sentence to correct.</source>
        <translation>La frase no tiene palabras: escribe una frase en inglés para corregirla.</translation>
    </message>
    <message>
        <location filename="../errors.py" line="45" />
        <source>The text has no words: type or paste some English to check.</source>
        <translation>El texto no tiene palabras: escribe o pega algo en inglés para revisarlo.</translation>
    </message>
    <message>
        <location filename="../errors.py" line="45" />
        <source>The sentence is {0} characters long; the tutor corrects one sentence of at most {1} characters. Shorten it or split it into several sentences.</source>
        <translation>La frase tiene {0} caracteres; el tutor corrige una frase de {1} caracteres como máximo. Acórtala o divídela en varias frases.</translation>
    </message>
    <message>
        <location filename="../errors.py" line="45" />
        <source>The text is {0} characters long; the checker takes up to {1} characters at a time. Split it into parts and check each one: nothing was cut.</source>
        <translation>El texto tiene {0} caracteres; se revisan hasta {1} caracteres cada vez. Divídelo en partes y revisa cada una: no se ha cortado nada.</translation>
    </message>
    <message>
        <location filename="../errors.py" line="45" />
        <source>The sentence contains a control or unassigned character ({0}); remove it and try again.</source>
        <translation>La frase contiene un carácter de control o sin asignar ({0}); quítalo y vuelve a intentarlo.</translation>
    </message>
    <message>
        <location filename="../errors.py" line="45" />
        <source>The text contains a control or unassigned character ({0}); remove it and try again.</source>
        <translation>El texto contiene un carácter de control o sin asignar ({0}); quítalo y vuelve a intentarlo.</translation>
    </message>
    <message>
        <location filename="../errors.py" line="45" />
        <source>The sentence contains an invisible character ({0}) at position {1}; it can hide or reorder letters. Remove it (retype the word) and try again.</source>
        <translation>La frase contiene un carácter invisible ({0}) en la posición {1}; puede ocultar o reordenar letras. Quítalo (vuelve a escribir la palabra) y vuelve a intentarlo.</translation>
    </message>
    <message>
        <location filename="../errors.py" line="45" />
        <source>The text contains an invisible character ({0}) at position {1}; it can hide or reorder letters. Remove it (retype the word) and try again.</source>
        <translation>El texto contiene un carácter invisible ({0}) en la posición {1}; puede ocultar o reordenar letras. Quítalo (vuelve a escribir la palabra) y vuelve a intentarlo.</translation>
    </message>
    <message>
        <location filename="../errors.py" line="13" />
        <source>The model could not be loaded: {0} Open Settings to choose another model.</source>
        <translation>No se pudo cargar el modelo: {0} Abre Ajustes para elegir otro modelo.</translation>
    </message>
    <message>
        <location filename="../errors.py" line="17" />
        <source>The history database has a problem: {0}</source>
        <translation>La base de datos del historial tiene un problema: {0}</translation>
    </message>
    <message>
        <location filename="../errors.py" line="24" />
        <source>working</source>
        <translation>se trabajaba</translation>
    </message>
    <message>
        <location filename="../errors.py" line="26" />
        <source>Something went wrong while {0} ({1}). Nothing was lost: try again, and if it keeps happening choose another model in Settings.</source>
        <translation>Algo falló mientras {0} ({1}). No se ha perdido nada: inténtalo de nuevo y, si vuelve a pasar, elige otro modelo en Ajustes.</translation>
    </message>
</context>
<context>
    <name>HistoryModel</name>
    <message>
        <location filename="../models.py" line="169" />
        <source>out of scope</source>
        <translation>fuera de alcance</translation>
    </message>
    <message>
        <location filename="../models.py" line="170" />
        <source>correct</source>
        <translation>correcta</translation>
    </message>
    <message>
        <location filename="../models.py" line="170" />
        <source>mistake</source>
        <translation>error</translation>
    </message>
    <message>
        <source>noted</source>
        <translation>con nota</translation>
    </message>
    <message>
        <source>not sure</source>
        <translation>no estoy seguro</translation>
    </message>
</context>
<context>
    <name>HistoryView</name>
    <message>
        <location filename="../views/history.py" line="146" />
        <source>Ver&amp;b:</source>
        <translation>Ver&amp;bo:</translation>
    </message>
    <message>
        <location filename="../views/history.py" line="147" />
        <source>Ten&amp;se:</source>
        <translation>T&amp;iempo:</translation>
    </message>
    <message>
        <location filename="../views/history.py" line="148" />
        <source>Pe&amp;rson:</source>
        <translation>Pe&amp;rsona:</translation>
    </message>
    <message>
        <location filename="../views/history.py" line="149" />
        <source>Fro&amp;m:</source>
        <translation>&amp;Desde:</translation>
    </message>
    <message>
        <location filename="../views/history.py" line="150" />
        <source>T&amp;o:</source>
        <translation>Ha&amp;sta:</translation>
    </message>
    <message>
        <location filename="../views/history.py" line="151" />
        <source>Sear&amp;ch:</source>
        <translation>Bus&amp;car:</translation>
    </message>
    <message>
        <location filename="../views/history.py" line="152" />
        <source>Words from the sentence…</source>
        <translation>Palabras de la frase…</translation>
    </message>
    <message>
        <location filename="../views/history.py" line="153" />
        <source>From date</source>
        <translation>Fecha de inicio</translation>
    </message>
    <message>
        <location filename="../views/history.py" line="154" />
        <source>To date</source>
        <translation>Fecha de fin</translation>
    </message>
    <message>
        <location filename="../views/history.py" line="155" />
        <source>Show &amp;all</source>
        <translation>&amp;Mostrar todo</translation>
    </message>
    <message>
        <location filename="../views/history.py" line="156" />
        <source>Review my mista&amp;kes</source>
        <translation>Repasar mis &amp;errores</translation>
    </message>
    <message>
        <location filename="../views/history.py" line="157" />
        <source>Practise again the sentences you got wrong</source>
        <translation>Vuelve a practicar las frases en las que te equivocaste</translation>
    </message>
    <message>
        <location filename="../views/history.py" line="158" />
        <source>Corrections, newest first</source>
        <translation>Correcciones, las más recientes primero</translation>
    </message>
    <message>
        <location filename="../views/history.py" line="159" />
        <source>All verbs</source>
        <translation>Todos los verbos</translation>
    </message>
    <message>
        <location filename="../views/history.py" line="160" />
        <source>All tenses</source>
        <translation>Todos los tiempos</translation>
    </message>
    <message>
        <location filename="../views/history.py" line="161" />
        <source>All persons</source>
        <translation>Todas las personas</translation>
    </message>
    <message>
        <location filename="../views/history.py" line="221" />
        <source>The history is not available.</source>
        <translation>El historial no está disponible.</translation>
    </message>
    <message>
        <location filename="../views/history.py" line="223" />
        <source>No corrections match.</source>
        <translation>Ninguna corrección coincide.</translation>
    </message>
    <message>
        <location filename="../views/history.py" line="225" />
        <source>1 correction</source>
        <translation>1 corrección</translation>
    </message>
    <message>
        <location filename="../views/history.py" line="225" />
        <source>{0} corrections</source>
        <translation>{0} correcciones</translation>
    </message>
</context>
<context>
    <name>Labels</name>
    <message>
        <location filename="../labels.py" line="11" />
        <source>infinitive</source>
        <translation>infinitivo</translation>
    </message>
    <message>
        <location filename="../labels.py" line="12" />
        <source>present simple</source>
        <translation>presente simple</translation>
    </message>
    <message>
        <location filename="../labels.py" line="13" />
        <source>past simple</source>
        <translation>pasado simple</translation>
    </message>
    <message>
        <location filename="../labels.py" line="14" />
        <source>past participle</source>
        <translation>participio pasado</translation>
    </message>
    <message>
        <location filename="../labels.py" line="15" />
        <source>simple future</source>
        <translation>futuro simple</translation>
    </message>
    <message>
        <location filename="../labels.py" line="23" />
        <source>1st singular (I)</source>
        <translation>1.ª singular (I, yo)</translation>
    </message>
    <message>
        <location filename="../labels.py" line="24" />
        <source>2nd singular (you)</source>
        <translation>2.ª singular (you, tú)</translation>
    </message>
    <message>
        <location filename="../labels.py" line="25" />
        <source>3rd singular (he, she, it)</source>
        <translation>3.ª singular (he, she, it; él, ella)</translation>
    </message>
</context>
<context>
    <name>LearnerBar</name>
    <message>
        <location filename="../views/learners.py" line="133" />
        <source>&amp;Learner:</source>
        <translation>A&amp;lumno:</translation>
    </message>
    <message>
        <location filename="../views/learners.py" line="134" />
        <source>Learner</source>
        <translation>Alumno</translation>
    </message>
    <message>
        <location filename="../views/learners.py" line="135" />
        <source>Choose or create a learner</source>
        <translation>Elige o crea un alumno</translation>
    </message>
    <message>
        <location filename="../views/learners.py" line="136" />
        <source>&amp;New learner…</source>
        <translation>&amp;Nuevo alumno…</translation>
    </message>
    <message>
        <location filename="../views/learners.py" line="190" />
        <source>That PIN is not right.</source>
        <translation>Ese PIN no es correcto.</translation>
    </message>
    <message>
        <location filename="../views/learners.py" line="215" />
        <source>A learner called {0} already exists; they are picked instead.</source>
        <translation>Ya existe un alumno llamado {0}; se elige ese alumno.</translation>
    </message>
    <message>
        <location filename="../views/learners.py" line="277" />
        <source>Too many wrong tries. Wait {0} s, then try again.</source>
        <translation>Demasiados intentos fallidos. Espera {0} s y vuelve a intentarlo.</translation>
    </message>
    <message>
        <location filename="../views/learners.py" line="308" />
        <source>A PIN needs at least {0} characters.</source>
        <translation>Un PIN necesita al menos {0} caracteres.</translation>
    </message>
</context>
<context>
    <name>LockPage</name>
    <message>
        <location filename="../views/teacher.py" line="102" />
        <source>Passphr&amp;ase:</source>
        <translation>&amp;Contraseña:</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="103" />
        <source>Repeat &amp;it:</source>
        <translation>&amp;Repítela:</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="104" />
        <source>Teacher passphrase</source>
        <translation>Contraseña del profesor</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="105" />
        <source>Repeat the teacher passphrase</source>
        <translation>Repite la contraseña del profesor</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="107" />
        <source>Choose a teacher passphrase</source>
        <translation>Elige una contraseña de profesor</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="110" />
        <source>Teacher review shows every learner's history. Choose a passphrase of at least {0} characters; learners will need it to open this page, so keep it to yourself.</source>
        <translation>La revisión del profesor muestra el historial de todos los alumnos. Elige una contraseña de al menos {0} caracteres; hará falta para abrir esta página, así que no la compartas.</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="114" />
        <source>Set passphrase and &amp;open</source>
        <translation>&amp;Guardar contraseña y abrir</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="116" />
        <source>Teacher review is locked</source>
        <translation>La revisión del profesor está bloqueada</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="117" />
        <source>Enter the teacher passphrase to see every learner's work.</source>
        <translation>Escribe la contraseña del profesor para ver el trabajo de todos los alumnos.</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="118" />
        <source>&amp;Unlock</source>
        <translation>&amp;Desbloquear</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="125" />
        <source>The passphrase needs at least {0} characters.</source>
        <translation>La contraseña necesita al menos {0} caracteres.</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="128" />
        <source>The two passphrases differ; type the same one twice.</source>
        <translation>Las dos contraseñas no coinciden; escribe la misma dos veces.</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="133" />
        <source>That passphrase is not right. Try again.</source>
        <translation>Esa contraseña no es correcta. Inténtalo de nuevo.</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="109" />
        <source>The history database is not available, so Teacher review stays locked.</source>
        <translation>La base de datos del historial no está disponible, así que la revisión del profesor sigue bloqueada.</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="148" />
        <source>Too many wrong tries. Wait {0} s, then try again.</source>
        <translation>Demasiados intentos fallidos. Espera {0} s y vuelve a intentarlo.</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../main_window.py" line="151" />
        <source>&amp;File</source>
        <translation>&amp;Archivo</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="152" />
        <source>&amp;View</source>
        <translation>&amp;Ver</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="153" />
        <source>&amp;Tools</source>
        <translation>Herramien&amp;tas</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="154" />
        <source>&amp;Help</source>
        <translation>Ay&amp;uda</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="155" />
        <source>&amp;New learner…</source>
        <translation>&amp;Nuevo alumno…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="156" />
        <source>&amp;Export history as CSV…</source>
        <translation>&amp;Exportar el historial como CSV…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="157" />
        <source>&amp;Quit</source>
        <translation>&amp;Salir</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="160" />
        <location filename="../main_window.py" line="168" />
        <source>Se&amp;ntence</source>
        <translation>&amp;Frase</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="160" />
        <source>&amp;History</source>
        <translation>&amp;Historial</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="160" />
        <source>&amp;Teacher review</source>
        <translation>Revisión del &amp;profesor</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="164" />
        <source>Go to the &amp;sentence box</source>
        <translation>Ir al cuadro de la &amp;frase</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="165" />
        <source>&amp;Settings…</source>
        <translation>A&amp;justes…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="166" />
        <source>&amp;Reload the model</source>
        <translation>&amp;Recargar el modelo</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="167" />
        <source>&amp;About grammar-tutor</source>
        <translation>&amp;Acerca de grammar-tutor</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="169" />
        <source>Histor&amp;y</source>
        <translation>&amp;Historial</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="170" />
        <source>T&amp;eacher</source>
        <translation>Pr&amp;ofesor</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="171" />
        <source>Pages</source>
        <translation>Páginas</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="172" />
        <source>Model status</source>
        <translation>Estado del modelo</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="173" />
        <source>Model loading progress</source>
        <translation>Progreso de carga del modelo</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="174" />
        <source>Masking latency of the last correction</source>
        <translation>Latencia de la máscara en la última corrección</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="180" />
        <source>grammar-tutor — {0}</source>
        <translation>grammar-tutor — {0}</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="188" />
        <source>Model: {0} · ready</source>
        <translation>Modelo: {0} · listo</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="190" />
        <source>No model loaded</source>
        <translation>Ningún modelo cargado</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="222" />
        <source>You can still correct sentences, but they will not be saved until this is fixed.</source>
        <translation>Puedes seguir corrigiendo frases, pero no se guardarán hasta que se resuelva.</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="225" />
        <source>Start a fresh database</source>
        <translation>Empezar una base de datos nueva</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="226" />
        <location filename="../main_window.py" line="305" />
        <location filename="../main_window.py" line="369" />
        <source>Try again</source>
        <translation>Reintentar</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="233" />
        <source>A fresh, empty database was started. The damaged file was kept as {0}.</source>
        <translation>Se ha empezado una base de datos nueva y vacía. El archivo dañado se ha guardado como {0}.</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="268" />
        <source>Loading the model…</source>
        <translation>Cargando el modelo…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="285" />
        <source>Loading the model: {0}</source>
        <translation>Cargando el modelo: {0}</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="299" />
        <source>No model is loaded. Open Settings (Ctrl+,) to choose one.</source>
        <translation>No hay ningún modelo cargado. Abre Ajustes (Ctrl+,) para elegir uno.</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="301" />
        <source>loading the model</source>
        <translation>se cargaba el modelo</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="305" />
        <source>Open Settings</source>
        <translation>Abrir Ajustes</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="345" />
        <source>The correction is shown but was not saved: {0}</source>
        <translation>La corrección se muestra, pero no se ha guardado: {0}</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="350" />
        <source>Choose or create a learner to keep a history of your corrections.</source>
        <translation>Elige o crea un alumno para guardar el historial de tus correcciones.</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="352" />
        <source>Fixed! Press Next mistake to go on.</source>
        <translation>¡Corregido! Pulsa «Siguiente error» para seguir.</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="359" />
        <source>answered without the model (not one of the 20 verbs) · {0:.0f} ms</source>
        <translation>respondido sin el modelo (no es uno de los 20 verbos) · {0:.0f} ms</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="200" />
        <source>The class server cannot be reached: your exercise answers will be sent with the next one.</source>
        <translation>No se puede conectar con el servidor de la clase: tus respuestas a los ejercicios se enviarán con la próxima.</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="361" />
        <source>judged by the model in {0:.0f} ms · answer forced: {1} tokens · {2:.0f} ms</source>
        <translation>juzgado por el modelo en {0:.0f} ms · respuesta forzada: {1} tokens · {2:.0f} ms</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="361" />
        <source>decided by the sentence itself, no model step · {0} tokens forced · {1:.0f} ms</source>
        <translation>decidido por la propia frase, sin paso del modelo · {0} tokens forzados · {1:.0f} ms</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="364" />
        <source>correcting your sentence</source>
        <translation>se corregía tu frase</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="386" />
        <source>{0} has no mistakes to review. Well done!</source>
        <translation>{0} no tiene errores que repasar. ¡Muy bien!</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="401" />
        <source>Review finished: you went through all your mistakes.</source>
        <translation>Repaso terminado: has revisado todos tus errores.</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="406" />
        <source>Review {0} of {1}: you wrote this on {2}. Fix the verb and press Ctrl+Enter.</source>
        <translation>Repaso {0} de {1}: escribiste esto el {2}. Corrige el verbo y pulsa Ctrl+Intro.</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="443" />
        <source>Some translation files are missing; part of the window stays in English.</source>
        <translation>Faltan algunos archivos de traducción; parte de la ventana seguirá en inglés.</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="464" />
        <source>An offline English verb tutor for Spanish speakers.</source>
        <translation>Un tutor de verbos ingleses sin conexión, para hispanohablantes.</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="469" />
        <source>Model: {0}&lt;br&gt;sha256: {1}&lt;br&gt;Licence: {2}</source>
        <translation>Modelo: {0}&lt;br&gt;sha256: {1}&lt;br&gt;Licencia: {2}</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="475" />
        <source>No model is loaded.</source>
        <translation>No hay ningún modelo cargado.</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="476" />
        <source>About grammar-tutor</source>
        <translation>Acerca de grammar-tutor</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="484" />
        <source>Finishing the current job…</source>
        <translation>Terminando la tarea en curso…</translation>
    </message>
    <message>
        <source>answered without the model: {0} · {1:.0f} ms</source>
        <translation>respondido sin el modelo: {0} · {1:.0f} ms</translation>
    </message>
    <message>
        <source>a pattern I note but do not correct</source>
        <translation>un patrón que señalo pero no corrijo</translation>
    </message>
    <message>
        <source>the subject is plural, and I check singular subjects only</source>
        <translation>el sujeto es plural, y solo reviso sujetos en singular</translation>
    </message>
    <message>
        <source>no verb of the 20 to fix</source>
        <translation>ningún verbo de los 20 que corregir</translation>
    </message>
    <message>
        <source>no answer to choose</source>
        <translation>ninguna respuesta que elegir</translation>
    </message>
    <message>
        <source>decided by the sentence itself · {0:.0f} ms</source>
        <translation>decidido por la propia frase · {0:.0f} ms</translation>
    </message>
    <message>
        <source>checked with the model · {0:.0f} ms</source>
        <translation>revisado con el modelo · {0:.0f} ms</translation>
    </message>
</context>
<context>
    <name>MessageBar</name>
    <message>
        <location filename="../views/messages.py" line="53" />
        <source>Dismiss this message</source>
        <translation>Cerrar este mensaje</translation>
    </message>
    <message>
        <location filename="../views/messages.py" line="54" />
        <source>Dismiss message</source>
        <translation>Cerrar mensaje</translation>
    </message>
    <message>
        <location filename="../views/messages.py" line="55" />
        <source>Message</source>
        <translation>Mensaje</translation>
    </message>
</context>
<context>
    <name>NewLearnerDialog</name>
    <message>
        <location filename="../views/learners.py" line="32" />
        <source>New learner</source>
        <translation>Nuevo alumno</translation>
    </message>
    <message>
        <location filename="../views/learners.py" line="35" />
        <source>Learner name</source>
        <translation>Nombre del alumno</translation>
    </message>
    <message>
        <location filename="../views/learners.py" line="38" />
        <source>PIN (optional)</source>
        <translation>PIN (opcional)</translation>
    </message>
    <message>
        <location filename="../views/learners.py" line="39" />
        <source>optional</source>
        <translation>opcional</translation>
    </message>
    <message>
        <location filename="../views/learners.py" line="44" />
        <source>&amp;Name:</source>
        <translation>&amp;Nombre:</translation>
    </message>
    <message>
        <location filename="../views/learners.py" line="46" />
        <source>&amp;PIN:</source>
        <translation>&amp;PIN:</translation>
    </message>
    <message>
        <location filename="../views/learners.py" line="50" />
        <source>With a PIN, nobody else can open this learner's history.</source>
        <translation>Con un PIN, nadie más puede abrir el historial de este alumno.</translation>
    </message>
    <message>
        <location filename="../views/learners.py" line="66" />
        <source>Type the learner's name.</source>
        <translation>Escribe el nombre del alumno.</translation>
    </message>
    <message>
        <location filename="../views/learners.py" line="58" />
        <source>With a PIN (at least {0} characters), other learners cannot switch to this profile in the app. The teacher passphrase opens it too.</source>
        <translation>Con un PIN (de al menos {0} caracteres), los demás alumnos no pueden cambiar a este perfil en la aplicación. La contraseña del profesor también lo abre.</translation>
    </message>
    <message>
        <location filename="../views/learners.py" line="80" />
        <source>A PIN needs at least {0} characters.</source>
        <translation>Un PIN necesita al menos {0} caracteres.</translation>
    </message>
</context>
<context>
    <name>PinDialog</name>
    <message>
        <location filename="../views/learners.py" line="77" />
        <source>PIN for {0}</source>
        <translation>PIN de {0}</translation>
    </message>
    <message>
        <location filename="../views/learners.py" line="80" />
        <source>PIN</source>
        <translation>PIN</translation>
    </message>
    <message>
        <location filename="../views/learners.py" line="81" />
        <source>{0}'s history is protected. Type the &amp;PIN:</source>
        <translation>El historial de {0} está protegido. Escribe el &amp;PIN:</translation>
    </message>
</context>
<context>
    <name>PracticeView</name>
    <message>
        <location filename="../views/practice.py" line="184" />
        <source>Your &amp;sentence in English:</source>
        <translation>Tu &amp;frase en inglés:</translation>
    </message>
    <message>
        <location filename="../views/practice.py" line="185" />
        <source>For example: He goed to school yesterday.</source>
        <translation>Por ejemplo: He goed to school yesterday.</translation>
    </message>
    <message>
        <location filename="../views/practice.py" line="186" />
        <source>Sentence to correct</source>
        <translation>Frase que corregir</translation>
    </message>
    <message>
        <location filename="../views/practice.py" line="187" />
        <source>Type one English sentence, then press Ctrl+Enter to correct it.</source>
        <translation>Escribe una frase en inglés y pulsa Ctrl+Intro para corregirla.</translation>
    </message>
    <message>
        <location filename="../views/practice.py" line="188" />
        <source>&amp;Correct</source>
        <translation>&amp;Corregir</translation>
    </message>
    <message>
        <location filename="../views/practice.py" line="189" />
        <source>Correct the sentence (Ctrl+Enter)</source>
        <translation>Corregir la frase (Ctrl+Intro)</translation>
    </message>
    <message>
        <location filename="../views/practice.py" line="190" />
        <source>Cle&amp;ar</source>
        <translation>&amp;Borrar</translation>
    </message>
    <message>
        <location filename="../views/practice.py" line="191" />
        <source>Correcting</source>
        <translation>Corrigiendo</translation>
    </message>
    <message>
        <location filename="../views/practice.py" line="192" />
        <source>Model output so far</source>
        <translation>Lo que el modelo ha escrito hasta ahora</translation>
    </message>
    <message>
        <location filename="../views/practice.py" line="193" />
        <source>Ne&amp;xt mistake</source>
        <translation>&amp;Siguiente error</translation>
    </message>
    <message>
        <location filename="../views/practice.py" line="194" />
        <source>St&amp;op review</source>
        <translation>&amp;Detener repaso</translation>
    </message>
    <message>
        <location filename="../views/practice.py" line="209" />
        <source>Thinking…</source>
        <translation>Pensando…</translation>
    </message>
    <message>
        <location filename="../views/practice.py" line="219" />
        <source>Thinking… {0}</source>
        <translation>Pensando… {0}</translation>
    </message>
    <message>
        <location filename="../views/practice.py" line="227" />
        <source>Type a sentence first, for example: She have a cat.</source>
        <translation>Escribe primero una frase, por ejemplo: She have a cat.</translation>
    </message>
    <message>
        <location filename="../views/practice.py" line="232" />
        <source>The model is still loading; you can correct your sentence in a moment.</source>
        <translation>El modelo todavía se está cargando; podrás corregir tu frase en un momento.</translation>
    </message>
    <message>
        <location filename="../views/practice.py" line="271" />
        <source>A sentence can have at most {0} characters, so the last {1} were cut.</source>
        <translation>Una frase puede tener como máximo {0} caracteres, así que se han quitado los últimos {1}.</translation>
    </message>
    <message>
        <location filename="../views/practice.py" line="279" />
        <source>{0} / {1}</source>
        <translation>{0} / {1}</translation>
    </message>
    <message>
        <location filename="../views/practice.py" line="280" />
        <source>{0} of {1} characters used</source>
        <translation>{0} de {1} caracteres usados</translation>
    </message>
    <message>
        <source>The model is still loading; I will correct your sentence as soon as it is ready.</source>
        <translation>El modelo aún se está cargando; corregiré tu frase en cuanto esté listo.</translation>
    </message>
</context>
<context>
    <name>ResultCard</name>
    <message>
        <location filename="../views/card.py" line="165" />
        <source>Your correction appears here</source>
        <translation>Aquí aparecerá tu corrección</translation>
    </message>
    <message>
        <location filename="../views/card.py" line="166" />
        <source>Type an English sentence above and press Ctrl+Enter.</source>
        <translation>Escribe arriba una frase en inglés y pulsa Ctrl+Intro.</translation>
    </message>
    <message>
        <location filename="../views/card.py" line="171" />
        <source>Result</source>
        <translation>Resultado</translation>
    </message>
    <message>
        <location filename="../views/card.py" line="176" />
        <source>That verb is not on my list yet</source>
        <translation>Ese verbo todavía no está en mi lista</translation>
    </message>
    <message>
        <location filename="../views/card.py" line="233" />
        <source>I only check singular subjects</source>
        <translation>Solo reviso sujetos en singular</translation>
    </message>
    <message>
        <location filename="../views/card.py" line="181" />
        <source>I only correct 20 verbs, and the verb to fix in this sentence is not one of them, so I would rather not guess. Try a sentence with one of these verbs:</source>
        <translation>Solo corrijo 20 verbos y el verbo que hay que corregir en esta frase no es uno de ellos, así que prefiero no adivinar. Prueba con una frase que use uno de estos verbos:</translation>
    </message>
    <message>
        <location filename="../views/card.py" line="194" />
        <source>Not sure</source>
        <translation>No estoy seguro</translation>
    </message>
    <message>
        <location filename="../views/card.py" line="198" />
        <source>I am not sure about this sentence (confidence {0} %). Here is my best guess; please check it with your teacher before you learn from it.</source>
        <translation>No estoy seguro de esta frase (confianza {0} %). Esta es mi mejor suposición; compruébala con tu profesor antes de aprenderla.</translation>
    </message>
    <message>
        <location filename="../views/card.py" line="204" />
        <source>Correct!</source>
        <translation>¡Correcto!</translation>
    </message>
    <message>
        <location filename="../views/card.py" line="205" />
        <source>The verb is right. Well done!</source>
        <translation>El verbo está bien. ¡Muy bien!</translation>
    </message>
    <message>
        <location filename="../views/card.py" line="208" />
        <source>Let's fix the verb</source>
        <translation>Vamos a corregir el verbo</translation>
    </message>
    <message>
        <location filename="../views/card.py" line="215" />
        <source>Verb</source>
        <translation>Verbo</translation>
    </message>
    <message>
        <location filename="../views/card.py" line="216" />
        <source>Tense</source>
        <translation>Tiempo</translation>
    </message>
    <message>
        <location filename="../views/card.py" line="217" />
        <source>Person</source>
        <translation>Persona</translation>
    </message>
    <message>
        <location filename="../views/card.py" line="221" />
        <source>In Spanish: {0}</source>
        <translation>En español: {0}</translation>
    </message>
    <message>
        <location filename="../views/card.py" line="227" />
        <source>Confidence: {0} %</source>
        <translation>Confianza: {0} %</translation>
    </message>
    <message>
        <location filename="../views/card.py" line="197" />
        <source>Note: {0}</source>
        <translation>Nota: {0}</translation>
    </message>
    <message>
        <location filename="../views/card.py" line="200" />
        <source>I do not correct this pattern; it is here so you can look at it.</source>
        <translation>No corrijo esta construcción; la señalo para que la revises.</translation>
    </message>
    <message>
        <location filename="../views/card.py" line="243" />
        <source>The verb I can check here, “{0}”, is right.</source>
        <translation>El verbo que sé revisar aquí, «{0}», está bien.</translation>
    </message>
    <message>
        <source>Also in this sentence:</source>
        <translation>También en esta frase:</translation>
    </message>
    <message>
        <source>not sure ({0} %): check it with your teacher</source>
        <translation>no estoy seguro ({0} %): revísalo con tu profesor</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../views/settings_dialog.py" line="36" />
        <source>Settings</source>
        <translation>Ajustes</translation>
    </message>
    <message>
        <location filename="../views/settings_dialog.py" line="39" />
        <source>Model</source>
        <translation>Modelo</translation>
    </message>
    <message>
        <location filename="../views/settings_dialog.py" line="42" />
        <source> (default)</source>
        <translation> (predeterminado)</translation>
    </message>
    <message>
        <location filename="../views/settings_dialog.py" line="48" />
        <source>&amp;Browse…</source>
        <translation>&amp;Examinar…</translation>
    </message>
    <message>
        <location filename="../views/settings_dialog.py" line="49" />
        <source>Use a GGUF model file from your disk</source>
        <translation>Usar un archivo de modelo GGUF de tu disco</translation>
    </message>
    <message>
        <location filename="../views/settings_dialog.py" line="58" />
        <source>Temperature</source>
        <translation>Temperatura</translation>
    </message>
    <message>
        <location filename="../views/settings_dialog.py" line="59" />
        <source>0 always gives the most likely answer; higher values vary more</source>
        <translation>0 da siempre la respuesta más probable; los valores más altos varían más</translation>
    </message>
    <message>
        <location filename="../views/settings_dialog.py" line="64" />
        <source>Language of the window</source>
        <translation>Idioma de la ventana</translation>
    </message>
    <message>
        <location filename="../views/settings_dialog.py" line="70" />
        <source>&amp;Model:</source>
        <translation>&amp;Modelo:</translation>
    </message>
    <message>
        <location filename="../views/settings_dialog.py" line="73" />
        <source>&amp;Temperature:</source>
        <translation>&amp;Temperatura:</translation>
    </message>
    <message>
        <location filename="../views/settings_dialog.py" line="76" />
        <source>&amp;Language:</source>
        <translation>&amp;Idioma:</translation>
    </message>
    <message>
        <location filename="../views/settings_dialog.py" line="108" />
        <source>Choose a GGUF model</source>
        <translation>Elige un modelo GGUF</translation>
    </message>
    <message>
        <location filename="../views/settings_dialog.py" line="108" />
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>Modelos GGUF (*.gguf);;Todos los archivos (*)</translation>
    </message>
    <message>
        <location filename="../views/settings_dialog.py" line="129" />
        <source>Checking the model file…</source>
        <translation>Comprobando el archivo del modelo…</translation>
    </message>
    <message>
        <location filename="../views/settings_dialog.py" line="138" />
        <source>Verified: {0} · sha256 {1}… · licence: {2}</source>
        <translation>Verificado: {0} · sha256 {1}… · licencia: {2}</translation>
    </message>
    <message>
        <location filename="../views/settings_dialog.py" line="149" />
        <source>checking the model</source>
        <translation>se comprobaba el modelo</translation>
    </message>
    <message>
        <location filename="../views/settings_dialog.py" line="138" />
        <source>Verified: {0} · sha256 {1}… · runs on this computer · licence: {2}</source>
        <translation>Verificado: {0} · sha256 {1}… · funciona en este ordenador · licencia: {2}</translation>
    </message>
    <message>
        <source> — not installed</source>
        <translation> — no instalado</translation>
    </message>
    <message>
        <source>To install it: {0}</source>
        <translation>Para instalarlo: {0}</translation>
    </message>
    <message>
        <source>Model file's sha256</source>
        <translation>sha256 del archivo del modelo</translation>
    </message>
    <message>
        <source>&amp;Advanced</source>
        <translation>&amp;Avanzado</translation>
    </message>
    <message>
        <source>sha256:</source>
        <translation>sha256:</translation>
    </message>
    <message>
        <source>Verified: {0} · runs on this computer · licence: {1}</source>
        <translation>Verificado: {0} · funciona en este ordenador · licencia: {1}</translation>
    </message>
    <message>
        <source>not verified</source>
        <translation>sin verificar</translation>
    </message>
    <message>
        <source>&amp;Gentler schedule: a card answered right comes back after a day or more</source>
        <translation>&amp;Horario más suave: una tarjeta acertada vuelve tras un día o más</translation>
    </message>
</context>
<context>
    <name>FindingCard</name>
    <message>
        <location filename="../views/finding_card.py" line="114" />
        <source>Select an underlined word</source>
        <translation>Elige una palabra subrayada</translation>
    </message>
    <message>
        <location filename="../views/finding_card.py" line="116" />
        <source>Click an underlined word in your text, or pick a line in the list, to see why it is marked.</source>
        <translation>Haz clic en una palabra subrayada de tu texto, o elige una línea de la lista, para ver por qué está marcada.</translation>
    </message>
    <message>
        <location filename="../views/finding_card.py" line="117" />
        <source>Finding</source>
        <translation>Hallazgo</translation>
    </message>
    <message>
        <location filename="../views/finding_card.py" line="125" />
        <source>Change {0} to {1}</source>
        <translation>Cambia {0} por {1}</translation>
    </message>
    <message>
        <location filename="../views/finding_card.py" line="131" />
        <source>Did you mean {0}?</source>
        <translation>¿Querías decir {0}?</translation>
    </message>
    <message>
        <location filename="../views/finding_card.py" line="135" />
        <source>I am not sure about this one (confidence {0} %). Read the sentence again, and change the word only if you agree; ask your teacher if you are unsure.</source>
        <translation>No estoy seguro de este (confianza {0} %). Vuelve a leer la frase y cambia la palabra solo si estás de acuerdo; si dudas, pregunta a tu profesor.</translation>
    </message>
    <message>
        <location filename="../views/finding_card.py" line="137" />
        <source>Verb</source>
        <translation>Verbo</translation>
    </message>
    <message>
        <location filename="../views/finding_card.py" line="138" />
        <source>Tense</source>
        <translation>Tiempo</translation>
    </message>
    <message>
        <location filename="../views/finding_card.py" line="139" />
        <source>Person</source>
        <translation>Persona</translation>
    </message>
    <message>
        <location filename="../views/finding_card.py" line="142" />
        <source>In Spanish: {0}</source>
        <translation>En español: {0}</translation>
    </message>
    <message>
        <location filename="../views/finding_card.py" line="146" />
        <source>In: {0}</source>
        <translation>En: {0}</translation>
    </message>
    <message>
        <location filename="../views/finding_card.py" line="147" />
        <source>Confidence: {0} %</source>
        <translation>Confianza: {0} %</translation>
    </message>
    <message>
        <location filename="../views/finding_card.py" line="151" />
        <source>Note: {0}</source>
        <translation>Nota: {0}</translation>
    </message>
    <message>
        <location filename="../views/finding_card.py" line="153" />
        <source>I do not correct this pattern; it is here so you can look at it.</source>
        <translation>No corrijo esta construcción; la señalo para que la revises.</translation>
    </message>
</context>
<context>
    <name>FindingsModel</name>
    <message>
        <location filename="../views/text_findings.py" line="93" />
        <source>{0} → {1}</source>
        <translation>{0} → {1}</translation>
    </message>
    <message>
        <location filename="../views/text_findings.py" line="94" />
        <source>{0} → {1}?</source>
        <translation>{0} → ¿{1}?</translation>
    </message>
    <message>
        <location filename="../views/text_findings.py" line="99" />
        <source>{0}: change it to {1}</source>
        <translation>{0}: cámbialo por {1}</translation>
    </message>
    <message>
        <location filename="../views/text_findings.py" line="100" />
        <source>{0}: did you mean {1}? (not sure)</source>
        <translation>{0}: ¿querías decir {1}? (no estoy seguro)</translation>
    </message>
</context>
<context>
    <name>TextCheckView</name>
    <message>
        <location filename="../views/text_check.py" line="251" />
        <source>Yo&amp;ur text in English (several sentences):</source>
        <translation>Tu t&amp;exto en inglés (varias frases):</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="253" />
        <source>For example: Yesterday my brother goed to the park. He have a new bike.</source>
        <translation>Por ejemplo: Yesterday my brother goed to the park. He have a new bike.</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="254" />
        <source>Text to check</source>
        <translation>Texto para revisar</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="256" />
        <source>Type or paste up to {0} characters, then press Ctrl+Enter. Wrong verbs are underlined: red wavy when I am sure, orange dotted when I am not. F8 goes to the next one.</source>
        <translation>Escribe o pega hasta {0} caracteres y pulsa Ctrl+Intro. Los verbos mal escritos se subrayan: en rojo ondulado si estoy seguro, en naranja punteado si no. F8 va al siguiente.</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="258" />
        <source>Chec&amp;k</source>
        <translation>&amp;Revisar</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="259" />
        <source>Check every sentence of the text (Ctrl+Enter)</source>
        <translation>Revisar cada frase del texto (Ctrl+Intro)</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="260" />
        <source>C&amp;opy corrected text</source>
        <translation>Copiar el texto &amp;corregido</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="262" />
        <source>Copy the text with every fix I am sure of to the clipboard (Ctrl+Shift+C); questions stay as you wrote them</source>
        <translation>Copiar al portapapeles el texto con todas las correcciones de las que estoy seguro (Ctrl+Mayús+C); las preguntas quedan como las escribiste</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="264" />
        <source>Clea&amp;r</source>
        <translation>&amp;Borrar</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="265" />
        <source>&amp;Apply</source>
        <translation>Apl&amp;icar</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="266" />
        <source>Replace the selected word by its correction (Ctrl+.)</source>
        <translation>Sustituir la palabra elegida por su corrección (Ctrl+.)</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="267" />
        <location filename="../views/text_check.py" line="277" />
        <source>Apply all</source>
        <translation>Aplicar to&amp;do</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="269" />
        <source>Replace every word I am sure of (Ctrl+Shift+.); questions wait for you to decide</source>
        <translation>Sustituir todas las palabras de las que estoy seguro (Ctrl+Mayús+.); las preguntas esperan a que decidas</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="270" />
        <source>F&amp;indings (F8 / Shift+F8):</source>
        <translation>Hallaz&amp;gos (F8 / Mayús+F8):</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="271" />
        <source>Findings</source>
        <translation>Hallazgos</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="272" />
        <source>Notes (not &amp;corrected):</source>
        <translation>Notas (&amp;sin corregir):</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="273" />
        <source>Notes</source>
        <translation>Notas</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="274" />
        <source>Checking progress</source>
        <translation>Progreso de la revisión</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="275" />
        <source>Verdict</source>
        <translation>Resultado</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="276" />
        <source>Apply</source>
        <translation>Aplicar</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="278" />
        <source>Copy corrected text</source>
        <translation>Copiar el texto corregido</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="279" />
        <source>Next finding</source>
        <translation>Hallazgo siguiente</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="280" />
        <source>Previous finding</source>
        <translation>Hallazgo anterior</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="283" />
        <location filename="../views/text_check.py" line="285" />
        <source>Te&amp;xt</source>
        <translation>Te&amp;xto</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="303" />
        <source>Type or paste a text first, for example an email to a friend.</source>
        <translation>Primero escribe o pega un texto, por ejemplo un correo a un amigo.</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="310" />
        <source>The model is still loading; you can check your text in a moment.</source>
        <translation>El modelo aún se está cargando; podrás revisar tu texto en un momento.</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="322" />
        <source>Splitting the text into sentences…</source>
        <translation>Dividiendo el texto en frases…</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="345" />
        <source>Checking sentence {0} of {1}…</source>
        <translation>Revisando la frase {0} de {1}…</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="347" />
        <source>Checked {0} of {1} sentences</source>
        <translation>Revisadas {0} de {1} frases</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="358" />
        <source>The findings are shown but were not saved: {0}</source>
        <translation>Los hallazgos se muestran, pero no se guardaron: {0}</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="363" />
        <source>The text changed while I was checking it; press Ctrl+Enter to check it again.</source>
        <translation>El texto cambió mientras lo revisaba; pulsa Ctrl+Intro para revisarlo de nuevo.</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="368" />
        <source>Choose or create a learner to keep these findings in your history.</source>
        <translation>Elige o crea un alumno para guardar estos hallazgos en tu historial.</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="377" />
        <source>checking your text</source>
        <translation>se revisaba tu texto</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="382" />
        <source>Try again</source>
        <translation>Reintentar</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="397" />
        <source>Nothing to fix among the verbs I can check. Read the notes, if any.</source>
        <translation>Nada que corregir entre los verbos que sé revisar. Lee las notas, si las hay.</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="471" />
        <source>The text changed, so the underlines were cleared. Press Ctrl+Enter to check it again.</source>
        <translation>El texto cambió, así que quité los subrayados. Pulsa Ctrl+Intro para revisarlo de nuevo.</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="489" />
        <source>I found no form of the 20 verbs I can check in this text, so I cannot say whether its verbs are right.</source>
        <translation>No encontré en este texto ninguna forma de los 20 verbos que sé revisar, así que no puedo decir si sus verbos están bien.</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="492" />
        <source>No errors in the 1 verb I can check ({0}).</source>
        <translation>No hay errores en el único verbo que sé revisar ({0}).</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="494" />
        <source>No errors in the {0} verbs I can check ({1}).</source>
        <translation>No hay errores en los {0} verbos que sé revisar ({1}).</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="496" />
        <source>Verbs I checked: {0} ({1}).</source>
        <translation>Verbos revisados: {0} ({1}).</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="498" />
        <source>To fix: {0}.</source>
        <translation>Para corregir: {0}.</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="500" />
        <source>Not sure, please look: {0}.</source>
        <translation>Dudosos, revísalos: {0}.</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="502" />
        <location filename="../views/text_check.py" line="572" />
        <location filename="../views/text_check.py" line="583" />
        <source>Every finding is applied. Press Ctrl+Enter to check the text again.</source>
        <translation>Todos los hallazgos están aplicados. Pulsa Ctrl+Intro para revisar el texto de nuevo.</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="504" />
        <source>Notes on what I do not correct: {0} (listed below).</source>
        <translation>Notas sobre lo que no corrijo: {0} (en la lista de abajo).</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="619" />
        <source>The corrected text is on the clipboard.</source>
        <translation>El texto corregido está en el portapapeles.</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="647" />
        <source>{0} / {1}</source>
        <translation>{0} / {1}</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="648" />
        <source>{0} of {1} characters used</source>
        <translation>{0} de {1} caracteres usados</translation>
    </message>
    <message>
        <location filename="../views/text_check.py" line="652" />
        <source>The text is {0} characters long; I check up to {1} at a time. Nothing was cut: shorten it or check it in parts.</source>
        <translation>El texto tiene {0} caracteres; reviso hasta {1} cada vez. No se ha cortado nada: acórtalo o revísalo por partes.</translation>
    </message>
    <message>
        <source>Every finding is applied.</source>
        <translation>Todas las correcciones están aplicadas.</translation>
    </message>
    <message>
        <source>Checking the text as it is now…</source>
        <translation>Revisando el texto tal como está ahora…</translation>
    </message>
    <message>
        <source>The text has changed since the last check. Press Ctrl+Enter to check it again.</source>
        <translation>El texto ha cambiado desde la última revisión. Pulsa Ctrl+Intro para revisarlo de nuevo.</translation>
    </message>
    <message>
        <source>Saved in {0}&apos;s history: {1} findings.</source>
        <translation>Guardado en el historial de {0}: {1} hallazgos.</translation>
    </message>
    <message>
        <source>Saved in {0}&apos;s history: 1 finding.</source>
        <translation>Guardado en el historial de {0}: 1 hallazgo.</translation>
    </message>
    <message>
        <source>Checked for {0}: nothing to keep in the history.</source>
        <translation>Revisado para {0}: nada que guardar en el historial.</translation>
    </message>
</context>
<context>
    <name>ClassProgressView</name>
    <message>
        <source>Exercises</source>
        <translation>Ejercicios</translation>
    </message>
    <message>
        <source>reading the class's exercises</source>
        <translation>leyendo los ejercicios de la clase</translation>
    </message>
</context>
<context>
    <name>ErrorTypes</name>
    <message>
        <source>base form for the past</source>
        <translation>forma base en pasado</translation>
    </message>
    <message>
        <source>-ed on an irregular past</source>
        <translation>-ed en un pasado irregular</translation>
    </message>
    <message>
        <source>missing -s (he, she, it)</source>
        <translation>falta la -s (he, she, it)</translation>
    </message>
    <message>
        <source>wrong -s form</source>
        <translation>forma en -s equivocada</translation>
    </message>
    <message>
        <source>wrong form of be</source>
        <translation>forma equivocada de be</translation>
    </message>
    <message>
        <source>have / has</source>
        <translation>have / has</translation>
    </message>
    <message>
        <source>wrong participle</source>
        <translation>participio equivocado</translation>
    </message>
    <message>
        <source>wrong future</source>
        <translation>futuro equivocado</translation>
    </message>
    <message>
        <source>infinitive needed</source>
        <translation>hace falta el infinitivo</translation>
    </message>
    <message>
        <source>present perfect with a past time</source>
        <translation>present perfect con un tiempo pasado</translation>
    </message>
    <message>
        <source>misspelled form</source>
        <translation>forma mal escrita</translation>
    </message>
</context>
<context>
    <name>ExercisesView</name>
    <message>
        <source>Due cards</source>
        <translation>Tarjetas pendientes</translation>
    </message>
    <message>
        <source>My progress</source>
        <translation>Mi progreso</translation>
    </message>
    <message>
        <source>&amp;Answer:</source>
        <translation>&amp;Respuesta:</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>Respuesta</translation>
    </message>
    <message>
        <source>Type the verb form that fills the gap and press Enter. Press Enter again, or F8, for the next card.</source>
        <translation>Escribe la forma verbal que falta y pulsa Intro. Pulsa Intro otra vez, o F8, para la siguiente tarjeta.</translation>
    </message>
    <message>
        <source>the verb form, e.g. went</source>
        <translation>la forma verbal, p. ej. went</translation>
    </message>
    <message>
        <source>Chec&amp;k</source>
        <translation>Comp&amp;robar</translation>
    </message>
    <message>
        <source>Check the answer (Enter)</source>
        <translation>Comprobar la respuesta (Intro)</translation>
    </message>
    <message>
        <source>Next car&amp;d</source>
        <translation>Siguiente tar&amp;jeta</translation>
    </message>
    <message>
        <source>Show the next due card (Enter after checking, or F8)</source>
        <translation>Mostrar la siguiente tarjeta pendiente (Intro tras comprobar, o F8)</translation>
    </message>
    <message>
        <source>Sentence with a gap</source>
        <translation>Frase con un hueco</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Resultado</translation>
    </message>
    <message>
        <source>Exercise&amp;s</source>
        <translation>Ejercicio&amp;s</translation>
    </message>
    <message>
        <source>Exercise&amp;s: practise my mistakes</source>
        <translation>Ejercicio&amp;s: practicar mis errores</translation>
    </message>
    <message>
        <source>Type the verb form that fills the gap first.</source>
        <translation>Primero escribe la forma verbal que falta.</translation>
    </message>
    <message>
        <source>No cards due. Correct some sentences or check a text: every mistake becomes cards to practise here.</source>
        <translation>No hay tarjetas pendientes. Corrige algunas frases o revisa un texto: cada error se convierte aquí en tarjetas para practicar.</translation>
    </message>
    <message>
        <source>Choose a learner to practise their mistakes.</source>
        <translation>Elige un alumno para practicar sus errores.</translation>
    </message>
    <message>
        <source>{0} cards due</source>
        <translation>{0} tarjetas pendientes</translation>
    </message>
    <message>
        <source>From a sentence you wrote.</source>
        <translation>De una frase que escribiste.</translation>
    </message>
    <message>
        <source>The same verb with another person.</source>
        <translation>El mismo verbo con otra persona.</translation>
    </message>
    <message>
        <source>The same tense with another verb.</source>
        <translation>El mismo tiempo con otro verbo.</translation>
    </message>
    <message>
        <source>you wrote {0}</source>
        <translation>escribiste {0}</translation>
    </message>
    <message>
        <source>The answer is {0} (you wrote {1}). This card stays due and comes back.</source>
        <translation>La respuesta es {0} (escribiste {1}). Esta tarjeta sigue pendiente y volverá.</translation>
    </message>
    <message>
        <source>Press Enter for the next card.</source>
        <translation>Pulsa Intro para la siguiente tarjeta.</translation>
    </message>
    <message>
        <source>reading the exercise cards</source>
        <translation>leyendo las tarjetas de ejercicios</translation>
    </message>
    <message>
        <source>Right!</source>
        <translation>¡Correcto!</translation>
    </message>
    <message>
        <source>Not quite.</source>
        <translation>No exactamente.</translation>
    </message>
    <message>
        <source>the verb form that fills the gap</source>
        <translation>la forma verbal que completa el hueco</translation>
    </message>
    <message>
        <source>Back now</source>
        <translation>Vuelve ya</translation>
    </message>
    <message>
        <source>Back in 1 minute</source>
        <translation>Vuelve en 1 minuto</translation>
    </message>
    <message>
        <source>Back in {0} minutes</source>
        <translation>Vuelve en {0} minutos</translation>
    </message>
    <message>
        <source>Back today at {0}</source>
        <translation>Vuelve hoy a las {0}</translation>
    </message>
    <message>
        <source>Back tomorrow</source>
        <translation>Vuelve mañana</translation>
    </message>
    <message>
        <source>d MMMM</source>
        <translation>d 'de' MMMM</translation>
    </message>
    <message>
        <source>d MMMM yyyy</source>
        <translation>d 'de' MMMM 'de' yyyy</translation>
    </message>
    <message>
        <source>Back on {0}</source>
        <translation>Vuelve el {0}</translation>
    </message>
</context>
<context>
    <name>ProgressView</name>
    <message>
        <source>{0} exercise cards, {1} due now · {2} answers, {3} right · {4} cells mastered.</source>
        <translation>{0} tarjetas de ejercicios, {1} pendientes ahora · {2} respuestas, {3} correctas · {4} casillas dominadas.</translation>
    </message>
    <message>
        <source>Errors per 100 words, by week</source>
        <translation>Errores por cada 100 palabras, por semana</translation>
    </message>
    <message>
        <source>Nothing written yet.</source>
        <translation>Todavía no hay nada escrito.</translation>
    </message>
    <message>
        <source>week of {0}: {1} errors in {2} words</source>
        <translation>semana del {0}: {1} errores en {2} palabras</translation>
    </message>
    <message>
        <source>Errors by type</source>
        <translation>Errores por tipo</translation>
    </message>
    <message>
        <source>No mistakes yet.</source>
        <translation>Todavía no hay errores.</translation>
    </message>
    <message>
        <source>Mastered: {0}</source>
        <translation>Dominado: {0}</translation>
    </message>
    <message>
        <source>Nothing mastered yet: a cell is mastered once every card of it has been answered right on several days in a row.</source>
        <translation>Todavía no hay nada dominado: una casilla queda dominada cuando todas sus tarjetas se han respondido bien varios días seguidos.</translation>
    </message>
    <message>
        <source>Mistakes and wrong answers by verb and tense</source>
        <translation>Errores y respuestas equivocadas por verbo y tiempo</translation>
    </message>
    <message>
        <source>Darker: more mistakes in writing and wrong answers in the exercises. ✓ mastered.</source>
        <translation>Más oscuro: más errores al escribir y respuestas equivocadas en los ejercicios. ✓ dominado.</translation>
    </message>
    <message>
        <source>{0}, {1}: {2}</source>
        <translation>{0}, {1}: {2}</translation>
    </message>
    <message>
        <source>No cell keeps going wrong.</source>
        <translation>Ninguna casilla sigue fallando.</translation>
    </message>
    <message>
        <source>Cells the class keeps getting wrong</source>
        <translation>Casillas que la clase sigue fallando</translation>
    </message>
    <message>
        <source>Cells that keep going wrong</source>
        <translation>Casillas que siguen fallando</translation>
    </message>
    <message>
        <source>cell</source>
        <translation>casilla</translation>
    </message>
    <message>
        <source>mistakes</source>
        <translation>errores</translation>
    </message>
    <message>
        <source>wrong answers</source>
        <translation>respuestas equivocadas</translation>
    </message>
    <message>
        <source>right answers</source>
        <translation>respuestas correctas</translation>
    </message>
    <message>
        <source>learners</source>
        <translation>alumnos</translation>
    </message>
</context>
<context>
    <name>ClassMenus</name>
    <message>
        <location filename="../views/class_server.py" line="150" />
        <source>Send my &amp;history to the teacher…</source>
        <translation>Enviar mi &amp;historial al profesor…</translation>
    </message>
    <message>
        <location filename="../views/class_server.py" line="151" />
        <source>&amp;Import learners' files…</source>
        <translation>&amp;Importar archivos de alumnos…</translation>
    </message>
    <message>
        <location filename="../views/class_server.py" line="152" />
        <source>&amp;Class server…</source>
        <translation>Servidor de &amp;clase…</translation>
    </message>
    <message>
        <location filename="../views/class_server.py" line="153" />
        <source>T&amp;eacher</source>
        <translation>Pr&amp;ofesor</translation>
    </message>
    <message>
        <location filename="../views/class_server.py" line="159" />
        <source>Choose a learner first: the bundle holds one learner's history.</source>
        <translation>Elige primero un alumno: el archivo guarda el historial de un solo alumno.</translation>
    </message>
    <message>
        <location filename="../views/class_server.py" line="162" />
        <source>Send my history to the teacher</source>
        <translation>Enviar mi historial al profesor</translation>
    </message>
    <message>
        <location filename="../views/class_server.py" line="163" />
        <location filename="../views/class_server.py" line="188" />
        <source>grammar-tutor bundles (*.json)</source>
        <translation>Archivos de grammar-tutor (*.json)</translation>
    </message>
    <message>
        <location filename="../views/class_server.py" line="177" />
        <source>Saved {0} corrections to {1}. Give this file to your teacher.</source>
        <translation>Se guardaron {0} correcciones en {1}. Dale este archivo a tu profesor.</translation>
    </message>
    <message>
        <location filename="../views/class_server.py" line="187" />
        <source>Import learners' files</source>
        <translation>Importar archivos de alumnos</translation>
    </message>
    <message>
        <location filename="../views/class_server.py" line="212" />
        <source>{0} new, {1} already present, {2} conflicts.</source>
        <translation>{0} nuevas, {1} ya presentes, {2} conflictos.</translation>
    </message>
    <message>
        <location filename="../views/class_server.py" line="223" />
        <source>{0}: {1}: {2} new, {3} already present, {4} conflicts</source>
        <translation>{0}: {1}: {2} nuevas, {3} ya presentes, {4} conflictos</translation>
    </message>
    <message>
        <location filename="../views/class_server.py" line="226" />
        <source> (another learner here is called {0}; imported as {1})</source>
        <translation> (aquí ya hay otro alumno llamado {0}; importado como {1})</translation>
    </message>
    <message>
        <location filename="../views/class_server.py" line="228" />
        <source> (new learner)</source>
        <translation> (alumno nuevo)</translation>
    </message>
</context>
<context>
    <name>ClassServerDialog</name>
    <message>
        <location filename="../views/class_server.py" line="64" />
        <source>Class server</source>
        <translation>Servidor de clase</translation>
    </message>
    <message>
        <location filename="../views/class_server.py" line="65" />
        <source>Use the class server (the local model is used when it cannot be reached)</source>
        <translation>Usar el servidor de clase (se usa el modelo local cuando no se puede conectar)</translation>
    </message>
    <message>
        <location filename="../views/class_server.py" line="66" />
        <source>Use the class server</source>
        <translation>Usar el servidor de clase</translation>
    </message>
    <message>
        <location filename="../views/class_server.py" line="68" />
        <source>Server address</source>
        <translation>Dirección del servidor</translation>
    </message>
    <message>
        <location filename="../views/class_server.py" line="70" />
        <source>Class code</source>
        <translation>Código de clase</translation>
    </message>
    <message>
        <location filename="../views/class_server.py" line="74" />
        <source>&amp;Test connection</source>
        <translation>&amp;Probar la conexión</translation>
    </message>
    <message>
        <location filename="../views/class_server.py" line="77" />
        <source>Server &amp;address:</source>
        <translation>&amp;Dirección del servidor:</translation>
    </message>
    <message>
        <location filename="../views/class_server.py" line="78" />
        <source>Class &amp;code:</source>
        <translation>&amp;Código de clase:</translation>
    </message>
    <message>
        <location filename="../views/class_server.py" line="107" />
        <source>Connecting…</source>
        <translation>Conectando…</translation>
    </message>
    <message>
        <location filename="../views/class_server.py" line="115" />
        <source>Connected: the server runs {0}.</source>
        <translation>Conectado: el servidor usa {0}.</translation>
    </message>
</context>
<context>
    <name>SetPassphraseDialog</name>
    <message>
        <location filename="../views/teacher.py" line="169" />
        <source>Change the teacher passphrase</source>
        <translation>Cambiar la contraseña del profesor</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="170" />
        <source>Set a teacher passphrase</source>
        <translation>Establecer una contraseña de profesor</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="174" />
        <source>&amp;Current passphrase:</source>
        <translation>Contraseña &amp;actual:</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="174" />
        <source>Current teacher passphrase</source>
        <translation>Contraseña actual del profesor</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="175" />
        <source>&amp;New passphrase:</source>
        <translation>Contraseña &amp;nueva:</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="175" />
        <source>New teacher passphrase</source>
        <translation>Nueva contraseña del profesor</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="176" />
        <source>&amp;Repeat it:</source>
        <translation>&amp;Repítela:</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="176" />
        <source>Repeat the new teacher passphrase</source>
        <translation>Repite la nueva contraseña del profesor</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="187" />
        <source>At least {0} characters. It guards Teacher review here and `grammar-tutor history` and every export on this database. Anyone who can copy the database file can still read it with other tools.</source>
        <translation>Al menos {0} caracteres. Protege aquí la revisión del profesor, y `grammar-tutor history` y cada exportación de esta base de datos. Quien pueda copiar el archivo de la base de datos aún puede leerlo con otras herramientas.</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="212" />
        <source>The passphrase needs at least {0} characters.</source>
        <translation>La contraseña necesita al menos {0} caracteres.</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="215" />
        <source>The two passphrases differ; type the same one twice.</source>
        <translation>Las dos contraseñas no coinciden; escribe la misma dos veces.</translation>
    </message>
    <message>
        <location filename="../views/teacher.py" line="225" />
        <source>Too many wrong tries. Wait {0} s, then try again.</source>
        <translation>Demasiados intentos fallidos. Espera {0} s y vuelve a intentarlo.</translation>
    </message>
</context>
<context>
    <name>TeacherView</name>
    <message>
        <location filename="../views/teacher.py" line="657" />
        <source>The teacher passphrase is set. Lock locks this page.</source>
        <translation>La contraseña del profesor está puesta. «Bloquear» bloquea esta página.</translation>
    </message>
</context>
</TS>