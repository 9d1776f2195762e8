import evaluate
from evaluate.utils import launch_gradio_widget

module = evaluate.load("oie2016.py")
launch_gradio_widget(module)
