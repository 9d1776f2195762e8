import evaluate
from evaluate.utils import launch_gradio_widget

module = evaluate.load("text2kg.py")
launch_gradio_widget(module)
